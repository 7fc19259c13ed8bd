#!/usr/bin/env bash
# Runs the whole test suite under the thread sanitizer, in its own build folder (.build-tsan). CI runs it.
# Usage: scripts/reliability/tsan.sh [extra swift test arguments, e.g. --filter DependencyStoreTests]
#
# Exits non-zero when a test fails or ThreadSanitizer reports anything (a data race, a lock-order inversion), also
# from a `poststore` process that the CLI tests run.
set -euo pipefail
source "$(dirname "$0")/../lib/sanitizer_support.sh"
# A report ends a process with status 86 (ThreadSanitizer's default, 66, is poststore's "no such store").
export TSAN_OPTIONS="exitcode=86${TSAN_OPTIONS:+:$TSAN_OPTIONS}"
run_sanitized_tests thread "WARNING: ThreadSanitizer" "$@"
