#!/usr/bin/env bash
# Builds the benchmark harness and the `poststore` CLI it times (both in release, in Benchmarks/.build) and runs it.
# Arguments go to the harness: --posts N (default 1,000,000), --runs R (default 3), --poststore PATH, --postgres URL.
# Without --postgres, the PostgreSQL measures run on a throwaway cluster (scripts/postgres.sh), stopped at the end;
# where no PostgreSQL server is installed they are skipped. See Benchmarks/README.md.
#
# --baseline REF also builds REF's harness and `poststore` in a git worktree of their own (.build-baseline/checkout,
# removed at the end, even on failure; the build folder .build-baseline/scratch is kept, so that the next baseline
# rebuilds REF's own code but not the packages it depends on), and the harness measures both builds side by side in
# the same runs, taking turns at each measure; the table gains the baseline's median and this/baseline columns.
set -euo pipefail
usage="usage: $0 [--posts N] [--runs R] [--poststore PATH] [--postgres URL] [--baseline REF]"
# Options are checked before the minutes of building; the harness checks their values.
args=()
has_postgres=false
baseline=""
while (($#)); do
    case "$1" in
        -h | --help) echo "$usage"; exit 0 ;;
        --posts | --runs | --poststore | --postgres | --baseline)
            [[ $# -ge 2 ]] || { echo "$usage" >&2; exit 64; }
            [[ "$1" == --postgres ]] && has_postgres=true
            if [[ "$1" == --baseline ]]; then baseline=$2; else args+=("$1" "$2"); fi
            shift 2
            ;;
        *) echo "benchmarks.sh: unknown option $1" >&2; echo "$usage" >&2; exit 64 ;;
    esac
done
set -- "${args[@]+"${args[@]}"}"
cd "$(dirname "$0")/../.."
if [[ -n "$baseline" ]]; then
    commit=$(git rev-parse --verify --quiet --end-of-options "$baseline^{commit}") || {
        echo "benchmarks.sh: --baseline $baseline is not a commit of this repository" >&2
        exit 1
    }
fi

cluster=""
worktree=""
# One exit path for every ending, Ctrl-C and failures included: the cluster stopped, the baseline's worktree removed.
cleanup() {
    if [[ -n "$cluster" ]]; then bash scripts/postgres.sh stop "$cluster" || true; fi
    if [[ -n "$worktree" ]]; then git worktree remove --force "$worktree" || true; fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

swift build -c release --package-path Benchmarks --product poststore
swift build -c release --package-path Benchmarks --product poststore-benchmarks
if [[ -n "$baseline" ]]; then
    mkdir -p .build-baseline
    # The worktree's path is fixed (the kept build folder records it), so one baseline run at a time.
    exec 9>.build-baseline/lock
    flock -n 9 || { echo "benchmarks.sh: another --baseline run is using .build-baseline" >&2; exit 1; }
    # A run that was killed outright may have left its worktree.
    if [[ -e .build-baseline/checkout ]]; then
        git worktree remove --force .build-baseline/checkout 2>/dev/null || rm -rf .build-baseline/checkout
    fi
    git worktree prune
    git worktree add --detach --quiet .build-baseline/checkout "$commit"
    worktree=.build-baseline/checkout
    if [[ ! -f "$worktree/Benchmarks/Package.swift" ]]; then
        echo "benchmarks.sh: --baseline $baseline has no benchmark harness (Benchmarks/Package.swift)" >&2
        exit 1
    fi
    short=$(git rev-parse --short "$commit")
    name=$([[ "$baseline" == "$short"* ]] && echo "$short" || echo "$baseline ($short)")
    scratch="$PWD/.build-baseline/scratch"
    # SwiftPM's build plan can miss a source file that REF adds to the main package (Benchmarks/README.md, "A
    # SwiftPM caveat"): made anew each time.
    rm -f "$scratch/release.yaml"
    echo "benchmarks.sh: building the baseline, $name, in $worktree ..." >&2
    started=$SECONDS
    for product in poststore poststore-benchmarks; do
        swift build -c release --package-path "$worktree/Benchmarks" --scratch-path "$scratch" --product "$product" >&2
    done
    echo "benchmarks.sh: the baseline built in $((SECONDS - started)) s" >&2
    set -- "$@" --baseline-harness "$scratch/release/poststore-benchmarks" --baseline-name "$name"
fi
if ! $has_postgres; then
    if url=$(bash scripts/postgres.sh start); then
        cluster=$url
        set -- "$@" --postgres "$url"
    else
        echo "benchmarks.sh: no PostgreSQL cluster could be started (see above); the PostgreSQL measures are skipped" >&2
    fi
fi
Benchmarks/.build/release/poststore-benchmarks "$@"
