#!/usr/bin/env bash
# Runs `poststore sync` of a generated file into a new SQLite store in a real terminal (a detached tmux session of
# 120 × 12) and prints the screen at chosen moments and at the end: what a user watching the progress display sees.
#
# Usage:
#   scripts/development/progress-screens.sh [--poststore PATH] [--posts N] [--at SECONDS ...]
#     --poststore PATH  the binary (default: builds .build/release/poststore)
#     --posts N         posts in the file (default 1000000)
#     --at SECONDS      a moment to capture, repeatable (default: 2, 8 and 15)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib/usage_support.sh"
poststore=""
posts=1000000
moments=()
while (($#)); do
    case "$1" in
        -h | --help) usage 0 ;;
        --poststore) [[ $# -ge 2 ]] || usage 64; poststore=$(realpath "$2"); shift 2 ;;
        --posts) [[ $# -ge 2 && $2 =~ ^[1-9][0-9]*$ ]] || usage 64; posts=$2; shift 2 ;;
        --at) [[ $# -ge 2 && $2 =~ ^[0-9]+(\.[0-9]+)?$ ]] || usage 64; moments+=("$2"); shift 2 ;;
        *) echo "progress-screens.sh: unknown option $1" >&2; usage 64 ;;
    esac
done
((${#moments[@]})) || moments=(2 8 15)
command -v tmux >/dev/null || { echo "progress-screens.sh: tmux is not installed (apt-get install tmux)" >&2; exit 69; }
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
if [[ -z $poststore ]]; then
    swift build -c release --product poststore >&2
    poststore=$(swift build -c release --show-bin-path)/poststore
fi

folder=$(mktemp -d)
socket="$folder/tmux.socket"
trap 'tmux -S "$socket" kill-server 2>/dev/null || true; rm -rf "$folder"' EXIT
python3 scripts/development/make-sample.py --posts "$posts" "$folder/posts.json" >&2
tmux -S "$socket" -f /dev/null set-option -g remain-on-exit on \; \
    new-session -d -s screens -x 120 -y 12 \
    "cd '$folder' && TERM=tmux-256color '$poststore' sync --from posts.json --store posts.sqlite"
started=$(date +%s.%N)
screen() {
    tmux -S "$socket" capture-pane -p -S - -t screens | grep -v '^Pane is dead' | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}'
}
for moment in "${moments[@]}"; do
    sleep "$(python3 -c "print(max(0, $started + $moment - $(date +%s.%N)))")"
    printf -- '--- after %s s\n' "$moment"
    screen
done
while [[ $(tmux -S "$socket" display-message -p -t screens '#{pane_dead}') != 1 ]]; do sleep 0.2; done
printf -- '--- at the end (%.1f s)\n' "$(python3 -c "print($(date +%s.%N) - $started)")"
screen
