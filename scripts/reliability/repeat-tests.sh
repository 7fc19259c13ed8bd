#!/usr/bin/env bash
# Runs plain `swift test` several times in a row while another process keeps a core busy, and says how each run
# ended: the proof that the suite passes every time on a loaded machine, not just once on a quiet one.
#
# Usage:
#   scripts/reliability/repeat-tests.sh [--runs N] [--no-load]
#
#   --runs N    how many runs (default 20)
#   --no-load   no load beside the tests
#
# The load is what a developer's machine does meanwhile: a release build of this package, single-job, in a scratch
# folder of its own (.build-load), started again from clean whenever it finishes. The tests run exactly as README
# says (`swift test`, no extra environment). Each run's log is kept in a temporary folder, named on failure. Prints
# one line a run, then "N passed, N failed"; exits 1 if any run failed, 64 on a bad option.
set -euo pipefail
# shellcheck source=scripts/lib/usage_support.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib/usage_support.sh"
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

runs=20
load=true
while (($#)); do
    case "$1" in
        --runs)
            [[ $# -ge 2 && "$2" =~ ^[1-9][0-9]*$ ]] || usage 64
            runs=$2
            shift 2
            ;;
        --no-load) load=false; shift ;;
        -h | --help) usage 0 ;;
        *) usage 64 ;;
    esac
done

logs=$(mktemp -d "${TMPDIR:-/tmp}/repeat-tests-XXXXXX")
load_pid=""
stop_load() {
    if [[ -n "$load_pid" ]]; then
        kill -- "-$load_pid" 2>/dev/null || true
        wait "$load_pid" 2>/dev/null || true
        # swift-build starts its compilers in process groups of their own, which the kill above does not reach: stop
        # those that write into .build-load as well, or its removal fails ("Directory not empty") after passing runs.
        pkill -f -- "$PWD/.build-load/" 2>/dev/null || true
        load_pid=""
    fi
}
trap stop_load EXIT

echo "building the tests once before timing them"
swift build --build-tests >"$logs/build.log" 2>&1 || { echo "error: the build failed, see $logs/build.log" >&2; exit 1; }

if $load; then
    # A process group of its own, so stopping it stops the compilers it started too.
    set -m
    (while true; do
        rm -rf .build-load
        swift build -c release -j 1 --scratch-path .build-load >/dev/null 2>&1 || true
    done) &
    load_pid=$!
    set +m
    echo "load: a single-job release build in .build-load, again and again (pid $load_pid)"
fi

passed=0
failed=0
for run in $(seq 1 "$runs"); do
    log="$logs/run-$run.log"
    start=$(date +%s)
    if swift test >"$log" 2>&1; then
        result=passed
        passed=$((passed + 1))
    else
        result="FAILED (log: $log)"
        failed=$((failed + 1))
    fi
    # Swift Testing ends with ✔, ✘, or ━ when the run had warnings or known issues; no such line is no summary.
    summary=$(grep -E '^(✔|✘|━) Test run with' "$log" | tail -1 | sed -E 's/^(✔|✘|━) //' || true)
    echo "run $run/$runs: $result, $(($(date +%s) - start)) s${summary:+, $summary}"
done
stop_load
# A compiler stopped a moment ago may still be closing its files there.
for _ in $(seq 1 50); do rm -rf .build-load 2>/dev/null && break; sleep 0.2; done
echo "$passed passed, $failed failed"
((failed == 0))
