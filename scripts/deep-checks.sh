#!/usr/bin/env bash
# The deep checks: what CI's gate (.ci/run) leaves out because it takes too long for every change. Run them before
# resolving an issue that touches an engine, sync, the server or concurrency, and give the summary in the closing
# note. They are, in order:
#
#   asan        the whole suite under the address sanitizer (scripts/reliability/asan.sh, .build-asan)
#   tsan        the whole suite under the thread sanitizer (scripts/reliability/tsan.sh, .build-tsan)
#   benchmarks  the benchmark harness at smoke size (scripts/benchmarks/benchmarks.sh; builds the release poststore in
#               Benchmarks/.build, which every step below runs)
#   crash       crash soak: SIGKILL, SIGINT and SIGTERM mid-sync (scripts/reliability/crash-soak.py)
#   soak        concurrency soak: syncs and readers on one store, first syncs racing
#               (scripts/reliability/concurrency-soak.py)
#   faults      PostgreSQL faults: server killed, backends terminated (also mid-COPY), server frozen, wrong password
#               (scripts/reliability/postgres-faults.py)
#   pgsoak      many writers, many machines: 4 sync loops, 4 servers with readers and If-Match writers, a copy
#               loop on one PostgreSQL store (scripts/reliability/postgres-soak.py: 20 s at smoke size, 60 s
#               with --full)
#   api         the HTTP API against openapi.yaml (scripts/reliability/api-check.sh, schemathesis from PyPI)
#   serve       poststore serve under load (scripts/benchmarks/serve-benchmark.py: wrk, datasette from PyPI)
#   concurrency one slow call beside everyone else's: serve during slow searches, an app syncing two stores, calls
#               one after another (scripts/benchmarks/concurrency-benchmark.py; --full: a million posts, three rounds)
#   feed        the changes feed: delta sync, follow latency, catch-up, idle long-polls
#               (scripts/benchmarks/feed-benchmark.py)
#   observe     observation: latency, idle observers, a sync observed, PostgreSQL writers with a listener
#               (poststore-benchmarks --observation)
#   differential  replicas following every engine behind serve, more rounds than the suite's 3
#               (ReplicaDifferentialTests with POSTSTORE_DIFFERENTIAL_ROUNDS: 25, 200 with --full)
#   fuzz        the payload decoder and the file reader under libFuzzer (scripts/reliability/fuzz.sh)
#
# Usage: scripts/deep-checks.sh [--only STEP[,STEP…]] [--skip STEP[,STEP…]] [--full]
#   --only, --skip  which steps run (names above); by default all, in that order
#   --full          the soaks, faults, fuzzing and benchmarks at full size instead of smoke size (hours)
#
# Every step runs even when an earlier one failed (a sanitizer's report should not hide a soak's); the end is a table
# of each step's result and seconds. Exits 1 when any step failed, 64 on a bad option. It starts a throwaway
# PostgreSQL cluster (scripts/postgres.sh) for the steps that use one unless POSTSTORE_TEST_POSTGRES_URL names a
# server, and installs what the chosen steps need when it is missing (wrk; gdb with POSTSTORE_STARVATION_LIMIT; schemathesis and datasette from PyPI).
# Takes 35 minutes or more at smoke size on two cores: each sanitizer, the release build and the fuzzers build apart.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

all_steps=(asan tsan benchmarks crash soak faults pgsoak api serve concurrency feed observe differential fuzz)
usage() {
    echo "usage: $0 [--only STEP[,STEP…]] [--skip STEP[,STEP…]] [--full]   (steps: ${all_steps[*]})" >&2
    exit 64
}
known() { [[ " ${all_steps[*]} " == *" $1 "* ]]; }

only=""
skip=""
full=false
while (($#)); do
    case "$1" in
        --only) [[ $# -ge 2 && -n $2 ]] || usage; only=$2; shift 2 ;;
        --skip) [[ $# -ge 2 && -n $2 ]] || usage; skip=$2; shift 2 ;;
        --full) full=true; shift ;;
        -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) echo "deep-checks.sh: unknown option $1" >&2; usage ;;
    esac
done
for name in ${only//,/ } ${skip//,/ }; do
    known "$name" || { echo "deep-checks.sh: no step named '$name'" >&2; usage; }
done
steps=()
for name in "${all_steps[@]}"; do
    [[ -z $only || ",$only," == *",$name,"* ]] || continue
    [[ ",$skip," == *",$name,"* ]] && continue
    steps+=("$name")
done

((${#steps[@]})) || { echo "deep-checks.sh: --only and --skip leave no step to run" >&2; usage; }
selected() { [[ " ${steps[*]} " == *" $1 "* ]]; }

# What the chosen steps need: gdb for the sanitizers' thread dumps when they are asked for
# (POSTSTORE_STARVATION_LIMIT, see scripts/lib/sanitizer_support.sh), wrk for the serve benchmark.
missing=()
if [[ -n ${POSTSTORE_STARVATION_LIMIT:-} ]] && { selected asan || selected tsan; }; then
    command -v gdb >/dev/null || missing+=(gdb)
fi
if selected serve || selected concurrency; then command -v wrk >/dev/null || missing+=(wrk); fi
if ((${#missing[@]})); then
    sudo=""
    [[ $(id -u) -eq 0 ]] || sudo="sudo"
    if ! { $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}"; }; then
        echo "deep-checks.sh: could not install ${missing[*]} with apt-get (see above)" >&2
        exit 1
    fi
fi
pip_install() {
    python3 -m pip install --quiet "$@" || python3 -m pip install --quiet --break-system-packages "$@"
}

needs_postgres=false
for name in asan tsan benchmarks soak faults pgsoak serve observe differential; do selected "$name" && needs_postgres=true; done
if $needs_postgres && [[ -z ${POSTSTORE_TEST_POSTGRES_URL:-} ]]; then
    POSTSTORE_TEST_POSTGRES_URL=$(bash scripts/postgres.sh start)
    export POSTSTORE_TEST_POSTGRES_URL
    trap 'bash scripts/postgres.sh stop "$POSTSTORE_TEST_POSTGRES_URL" || true' EXIT
fi
postgres=${POSTSTORE_TEST_POSTGRES_URL:-}
poststore=Benchmarks/.build/release/poststore

release_build() {
    # The steps after the benchmarks run the release poststore that they build; alone, they build it here.
    [[ -x $poststore ]] || swift build -c release --package-path Benchmarks --product poststore
}

run_step() {
    case "$1" in
        asan) bash scripts/reliability/asan.sh ;;
        tsan) bash scripts/reliability/tsan.sh ;;
        benchmarks)
            if $full; then
                bash scripts/benchmarks/benchmarks.sh --posts 1000000 --runs 3 --postgres "$postgres"
            else
                bash scripts/benchmarks/benchmarks.sh --posts 2000 --runs 1 --postgres "$postgres"
            fi
            ;;
        crash)
            release_build
            if $full; then
                python3 scripts/reliability/crash-soak.py --poststore "$poststore"
            else
                python3 scripts/reliability/crash-soak.py --poststore "$poststore" --posts 20000 --kills 15 \
                    --temp-kills 5 --signals 4
            fi
            ;;
        soak)
            release_build
            if $full; then
                python3 scripts/reliability/concurrency-soak.py --poststore "$poststore" --postgres "$postgres"
            else
                python3 scripts/reliability/concurrency-soak.py --poststore "$poststore" --seconds 20 --posts 1000 \
                    --first-sync-rounds 10 --postgres "$postgres"
            fi
            ;;
        faults)
            # On the release build: an optimizer bug once turned a refused login into a crash there alone.
            release_build
            local rounds=2
            $full && rounds=10
            python3 scripts/reliability/postgres-faults.py --poststore "$poststore" --posts 2000 --rounds "$rounds"
            # The faults aimed at a sync's COPY need one that lasts (a few tenths of a second at 100,000 posts).
            python3 scripts/reliability/postgres-faults.py --poststore "$poststore" --posts 100000 --rounds "$rounds" \
                --faults terminate-copy,kill-copy
            ;;
        pgsoak)
            # Smoke size: a third of the full run, the same processes and threads on fewer posts per range.
            release_build
            local seconds=20 posts=200
            $full && seconds=60 posts=500
            python3 scripts/reliability/postgres-soak.py --poststore "$poststore" --seconds "$seconds" \
                --posts "$posts" --postgres "$postgres"
            ;;
        api)
            release_build
            command -v schemathesis >/dev/null || pip_install schemathesis
            local examples=20
            $full && examples=200
            bash scripts/reliability/api-check.sh --poststore "$poststore" --examples "$examples"
            ;;
        serve)
            release_build
            command -v datasette >/dev/null || pip_install 'datasette<0.66'
            local seconds=1
            $full && seconds=10
            python3 scripts/benchmarks/serve-benchmark.py --poststore "$poststore" --posts 2000 --seconds "$seconds" \
                --postgres "$postgres"
            ;;
        concurrency)
            command -v datasette >/dev/null || pip_install 'datasette<0.66'
            if $full; then
                python3 scripts/benchmarks/concurrency-benchmark.py
            else
                python3 scripts/benchmarks/concurrency-benchmark.py --posts 2000 --runs 1 --seconds 1
            fi
            ;;
        feed)
            release_build
            if $full; then
                python3 scripts/benchmarks/feed-benchmark.py --poststore "$poststore"
            else
                python3 scripts/benchmarks/feed-benchmark.py --poststore "$poststore" --posts 2000 --writes 50 \
                    --rate 20 --followers 10 --idle-seconds 2 --runs 1
            fi
            ;;
        observe)
            swift build -c release --package-path Benchmarks --product poststore-benchmarks
            if $full; then
                Benchmarks/.build/release/poststore-benchmarks --observation --posts 1000000 --runs 3 \
                    --postgres "$postgres"
            else
                Benchmarks/.build/release/poststore-benchmarks --observation --posts 2000 --runs 1 --idle-seconds 5 \
                    --postgres "$postgres"
            fi
            ;;
        differential)
            local rounds=25
            $full && rounds=200
            POSTSTORE_DIFFERENTIAL_ROUNDS=$rounds swift test --filter ReplicaDifferentialTests
            ;;
        fuzz)
            local seconds=20
            $full && seconds=600
            bash scripts/reliability/fuzz.sh --seconds "$seconds"
            ;;
    esac
}

results=()
failed=0
for name in "${steps[@]}"; do
    printf '\n==> [%ss] deep check: %s\n' "$SECONDS" "$name"
    started=$SECONDS
    if (run_step "$name"); then result=passed; else result=FAILED; failed=1; fi
    results+=("$(printf '%-11s %-7s %6s s' "$name" "$result" "$((SECONDS - started))")")
done

printf '\n==> deep checks (%s, %s s in all)\n' "$($full && echo full size || echo smoke size)" "$SECONDS"
printf '%s\n' "${results[@]}"
passed=$(printf '%s\n' "${results[@]}" | grep -c ' passed ' || true)
echo "$passed passed, $((${#steps[@]} - passed)) failed"
exit "$failed"
