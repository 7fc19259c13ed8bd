#!/usr/bin/env bash
# Generates poststore's shell completions (bash, zsh, fish) and its manual page, and checks each: the scripts parse
# in their shell (bash -n; zsh -n and fish --no-execute where installed) and name every subcommand and a flag of
# each, and the manual page names every subcommand and renders without a warning (`man --warnings`, where
# installed). CI runs it after the tests' build.
#
# The manual page comes from swift-argument-parser's `generate-manual` tool run on the debug build of poststore, the
# same tool its `swift package plugin generate-manual` runs (the plugin would first build every product in release).
#
# Usage:
#   scripts/ci/completions-check.sh [--output DIR]
#     --output DIR  keep the generated files in DIR (default: a temporary folder, deleted)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib/usage_support.sh"
output=""
while (($#)); do
    case "$1" in
        -h | --help) usage 0 ;;
        --output) [[ $# -ge 2 ]] || usage 64; output=$2; shift 2 ;;
        *) echo "completions-check.sh: unknown option $1" >&2; usage 64 ;;
    esac
done
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

if [[ -z $output ]]; then
    output=$(mktemp -d)
    trap 'rm -rf "$output"' EXIT
fi
mkdir -p "$output"

for product in poststore generate-manual; do
    swift build --product "$product" >"$output/build.log" 2>&1 || { cat "$output/build.log" >&2; exit 1; }
done
bin=$(swift build --show-bin-path)
subcommands=(sync query info migrate copy serve)
failures=0
fail() {
    echo "completions-check.sh: $1" >&2
    failures=$((failures + 1))
}

# Each script must name every subcommand and a flag that only that subcommand has.
declare -A flag_of=([sync]=--prune [query]=--search [info]=--format [migrate]=--status [copy]=--from-store
    [serve]=--allow-writes)
for shell in bash zsh fish; do
    file="$output/poststore.$shell"
    "$bin/poststore" --generate-completion-script "$shell" >"$file"
    for subcommand in "${subcommands[@]}"; do
        grep -q -- "$subcommand" "$file" || fail "the $shell completions do not name $subcommand"
        grep -q -- "${flag_of[$subcommand]#--}" "$file" || fail "the $shell completions lack ${flag_of[$subcommand]}"
    done
    case $shell in
        bash) bash -n "$file" || fail "the bash completions do not parse" ;;
        zsh) if command -v zsh >/dev/null; then zsh -n "$file" || fail "the zsh completions do not parse"; fi ;;
        fish) if command -v fish >/dev/null; then fish --no-execute "$file" || fail "the fish completions do not parse"; fi ;;
    esac
done

"$bin/generate-manual" "$bin/poststore" --output-directory "$output" >/dev/null
page="$output/poststore.1"
[[ -s $page ]] || fail "no manual page was written"
for subcommand in "${subcommands[@]}"; do
    grep -q "^\.It Em $subcommand\$" "$page" || fail "the manual page has no section for $subcommand"
done
if command -v man >/dev/null; then
    warnings=$(MANWIDTH=80 man --warnings -l "$page" 2>&1 >/dev/null || true)
    [[ -z $warnings ]] || fail "the manual page renders with warnings: $warnings"
fi

if ((failures)); then exit 1; fi
echo "completions-check.sh: the bash, zsh and fish completions and the manual page are complete"
