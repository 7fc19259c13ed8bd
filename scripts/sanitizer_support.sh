# Sourced by scripts/asan.sh and scripts/tsan.sh: the part of a sanitized test run they share.
#
# run_sanitized_tests SANITIZER REPORT_MARKER [swift test arguments...]
#   Answers -h/--help, builds and runs the suite with `swift test --sanitize=SANITIZER` in .build-<first letter>san
#   (.build-asan, .build-tsan), and exits non-zero when a test fails or the output holds REPORT_MARKER (a report of
#   the test runner or of a `poststore` child the CLI tests ran). The caller exports the sanitizer's options first.
run_sanitized_tests() {
    local sanitizer=$1 marker=$2 name
    name=$(basename "$0")
    shift 2
    if [[ "${1:-}" == "-h" || "${1:-}" == "--help" ]]; then
        echo "usage: $0 [swift test arguments, e.g. --filter InjectionTests]"
        exit 0
    fi
    cd "$(dirname "$0")/.."
    local log status=0
    log=$(mktemp)
    trap 'rm -f "$log"' EXIT
    swift test --sanitize="$sanitizer" --scratch-path ".build-${sanitizer:0:1}san" "$@" 2>&1 | tee "$log" || status=$?
    if grep -q "$marker" "$log"; then
        echo "$name: the $sanitizer sanitizer reported a problem (see above)." >&2
        exit 1
    fi
    exit "$status"
}
