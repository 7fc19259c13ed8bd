#!/usr/bin/env bash
# Builds the benchmark harness and the `poststore` CLI it times (both in release, in Benchmarks/.build) and runs it.
# Arguments go to the harness: --posts N (default 1,000,000), --runs R (default 3), --poststore PATH, --postgres URL.
# Without --postgres, the PostgreSQL measures run on a throwaway cluster (scripts/postgres.sh), stopped at the end;
# where no PostgreSQL server is installed they are skipped. See Benchmarks/README.md.
set -euo pipefail
usage="usage: $0 [--posts N] [--runs R] [--poststore PATH] [--postgres URL]"
# Options are checked before the minutes of building; the harness checks their values.
args=("$@")
has_postgres=false
while (($#)); do
    case "$1" in
        -h | --help) echo "$usage"; exit 0 ;;
        --posts | --runs | --poststore | --postgres)
            [[ $# -ge 2 ]] || { echo "$usage" >&2; exit 64; }
            [[ "$1" == --postgres ]] && has_postgres=true
            shift 2
            ;;
        *) echo "benchmarks.sh: unknown option $1" >&2; echo "$usage" >&2; exit 64 ;;
    esac
done
set -- "${args[@]+"${args[@]}"}"
cd "$(dirname "$0")/../.."
swift build -c release --package-path Benchmarks --product poststore
swift build -c release --package-path Benchmarks --product poststore-benchmarks
if ! $has_postgres; then
    if url=$(bash scripts/postgres.sh start); then
        trap 'bash scripts/postgres.sh stop "$url" || true' EXIT
        set -- "$@" --postgres "$url"
    else
        echo "benchmarks.sh: no PostgreSQL cluster could be started (see above); the PostgreSQL measures are skipped" >&2
    fi
fi
Benchmarks/.build/release/poststore-benchmarks "$@"
