# Sourced by scripts/reliability/asan.sh and scripts/reliability/tsan.sh: the part of a sanitized test run they share.

# The repository, two folders above this file (scripts/lib/), found when the file is sourced.
sanitizer_repository=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

# run_sanitized_tests SANITIZER REPORT_MARKER [swift test arguments...]
#   Answers -h/--help, builds and runs the suite with `swift test --sanitize=SANITIZER` in .build-<first letter>san
#   (.build-asan, .build-tsan), and exits non-zero when a test fails or the output holds REPORT_MARKER (a report of
#   the test runner or of a `poststore` child the CLI tests ran). The caller exports the sanitizer's options first.
#
#   With POSTSTORE_STARVATION_LIMIT=SECONDS set, scripts/reliability/starvation-watch.py runs beside the tests and
#   prints every thread's stack when a test has run for longer (gdb needed): a test that starves under a sanitizer shows
#   what it waits behind. It is off by default: gdb stops the whole process while it reads hundreds of threads (minutes
#   under a sanitizer), and Swift Testing marks many tests started at once, so an unasked dump made timed tests fail.
run_sanitized_tests() {
    local sanitizer=$1 marker=$2 name
    name=$(basename "$0")
    shift 2
    if [[ "${1:-}" == "-h" || "${1:-}" == "--help" ]]; then
        echo "usage: $0 [swift test arguments, e.g. --filter InjectionTests]"
        exit 0
    fi
    cd "$sanitizer_repository"
    local log status=0 scratch=".build-${sanitizer:0:1}san"
    log=$(mktemp)
    trap 'rm -f "$log" "$log.events" "$log.events.starvation"' EXIT
    # Built first, so the watch times tests and not the build.
    swift build --build-tests --sanitize="$sanitizer" --scratch-path "$scratch" || exit $?
    swift test --skip-build --sanitize="$sanitizer" --scratch-path "$scratch" \
        --event-stream-output-path "$log.events" --event-stream-version 0 "$@" >"$log" 2>&1 &
    local tests=$!
    local watch=""
    if [[ -n ${POSTSTORE_STARVATION_LIMIT:-} ]]; then
        if command -v gdb >/dev/null; then
            python3 scripts/reliability/starvation-watch.py "$log.events" --pid "$tests" \
                --limit "$POSTSTORE_STARVATION_LIMIT" &
            watch=$!
        else
            echo "$name: no gdb, so no thread dump of a starving test (apt-get install gdb)" >&2
        fi
    fi
    tail -n +1 -f --pid="$tests" "$log" || true
    wait "$tests" || status=$?
    [[ -z $watch ]] || wait "$watch" || true
    if grep -q "$marker" "$log"; then
        echo "$name: the $sanitizer sanitizer reported a problem (see above)." >&2
        exit 1
    fi
    if [[ -s "$log.events.starvation" ]]; then
        echo "$name: tests ran for over $POSTSTORE_STARVATION_LIMIT s; every thread's stack then is above (starvation-watch)." >&2
    fi
    exit "$status"
}
