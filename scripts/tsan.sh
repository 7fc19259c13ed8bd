#!/usr/bin/env bash
# Runs the whole test suite under the thread sanitizer, in its own build folder (.build-tsan). CI runs it.
# Usage: scripts/tsan.sh [extra swift test arguments, e.g. --filter DependencyStoreTests]
#
# Exits non-zero when a test fails or ThreadSanitizer reports anything (a data race, a lock-order inversion), also
# from a `poststore` process that the CLI tests run.
set -euo pipefail
if [[ "${1:-}" == "-h" || "${1:-}" == "--help" ]]; then
    echo "usage: $0 [swift test arguments, e.g. --filter InjectionTests]"
    exit 0
fi
cd "$(dirname "$0")/.."
log=$(mktemp)
trap 'rm -f "$log"' EXIT
# A report ends a process with status 86 (ThreadSanitizer's default, 66, is poststore's "no such store").
export TSAN_OPTIONS="exitcode=86${TSAN_OPTIONS:+:$TSAN_OPTIONS}"
status=0
swift test --sanitize=thread --scratch-path .build-tsan "$@" 2>&1 | tee "$log" || status=$?
if grep -q "WARNING: ThreadSanitizer" "$log"; then
    echo "tsan.sh: ThreadSanitizer reported a problem (see above)." >&2
    exit 1
fi
exit "$status"
