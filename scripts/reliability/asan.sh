#!/usr/bin/env bash
# Runs the whole test suite under the address sanitizer, in its own build folder (.build-asan). CI runs it.
# Usage: scripts/reliability/asan.sh [extra swift test arguments, e.g. --filter HostilePayloadTests]
#
# Leak detection is off: FoundationNetworking (libcurl) and the Swift runtime keep process-lifetime allocations
# that LeakSanitizer reports at exit, which would also change the exit status of every `poststore` the CLI tests
# run. Memory errors (overflows, use after free, double free) still stop the run.
set -euo pipefail
source "$(dirname "$0")/../lib/sanitizer_support.sh"
# No suppressions: every report fails the run. A report ends a process with status 86, which no poststore exit code
# uses, so a CLI test never takes it for a documented failure.
export ASAN_OPTIONS="detect_leaks=0:exitcode=86${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
run_sanitized_tests address "ERROR: AddressSanitizer" "$@"
