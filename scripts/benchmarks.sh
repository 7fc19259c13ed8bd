#!/usr/bin/env bash
# Builds the benchmark harness and the `poststore` CLI it times (both in release, in Benchmarks/.build) and runs it.
# Arguments go to the harness: --posts N (default 1,000,000), --runs R (default 3). See Benchmarks/README.md.
set -euo pipefail
usage="usage: $0 [--posts N] [--runs R] [--poststore PATH]"
# Options are checked before the minutes of building; the harness checks their values.
args=("$@")
while (($#)); do
    case "$1" in
        -h | --help) echo "$usage"; exit 0 ;;
        --posts | --runs | --poststore) [[ $# -ge 2 ]] || { echo "$usage" >&2; exit 64; }; shift 2 ;;
        *) echo "benchmarks.sh: unknown option $1" >&2; echo "$usage" >&2; exit 64 ;;
    esac
done
set -- "${args[@]+"${args[@]}"}"
cd "$(dirname "$0")/.."
swift build -c release --package-path Benchmarks --product poststore
swift build -c release --package-path Benchmarks --product poststore-benchmarks
Benchmarks/.build/release/poststore-benchmarks "$@"
