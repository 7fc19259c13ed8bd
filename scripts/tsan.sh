#!/usr/bin/env bash
# Runs the whole test suite under the thread sanitizer, in its own build folder (.build-tsan).
# Usage: scripts/tsan.sh [extra swift test arguments, e.g. --filter DependencyStoreTests]
set -euo pipefail
cd "$(dirname "$0")/.."
swift test --sanitize=thread --scratch-path .build-tsan "$@" 2>&1 | tee /tmp/poststore-tsan.log
if grep -q "WARNING: ThreadSanitizer" /tmp/poststore-tsan.log; then
    echo "tsan.sh: ThreadSanitizer reported a problem (see above)." >&2
    exit 1
fi
