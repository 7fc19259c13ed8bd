#!/usr/bin/env bash
# Runs the whole test suite under the address sanitizer, in its own build folder (.build-asan). CI runs it.
# Usage: scripts/asan.sh [extra swift test arguments, e.g. --filter HostilePayloadTests]
#
# Leak detection is off: FoundationNetworking (libcurl) and the Swift runtime keep process-lifetime allocations
# that LeakSanitizer reports at exit, which would also change the exit status of every `poststore` the CLI tests
# run. Memory errors (overflows, use after free, double free) still stop the run.
set -euo pipefail
if [[ "${1:-}" == "-h" || "${1:-}" == "--help" ]]; then
    echo "usage: $0 [swift test arguments, e.g. --filter InjectionTests]"
    exit 0
fi
cd "$(dirname "$0")/.."
log=$(mktemp)
trap 'rm -f "$log"' EXIT
# scripts/asan-suppressions.txt silences one over-read inside Foundation's Process (see that file). A report ends a
# process with status 86, which no poststore exit code uses, so a CLI test never takes it for a documented failure.
export ASAN_OPTIONS="detect_leaks=0:exitcode=86:suppressions=$PWD/scripts/asan-suppressions.txt${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
status=0
swift test --sanitize=address --scratch-path .build-asan "$@" 2>&1 | tee "$log" || status=$?
if grep -q "ERROR: AddressSanitizer" "$log"; then
    echo "asan.sh: AddressSanitizer reported a memory error (see above)." >&2
    exit 1
fi
exit "$status"
