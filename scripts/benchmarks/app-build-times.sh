#!/usr/bin/env bash
# Times what an app pays to build PostStore's composition root: two app packages, each with one target that imports
# PostStoreLive, depend on a clone of this repository, one with the default traits and one with `traits: []` (no
# PostgreSQL engine); each is built from clean (`swift build`, debug) one after the other, and the seconds are printed
# with which of NIO and postgres-nio each build compiled. A third app that imports the core alone (`PostStore`) is
# the floor. Run it on a quiet machine: the figures are wall-clock times.
#
# Usage: scripts/benchmarks/app-build-times.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
source scripts/lib/app_package.sh
workspace=$(mktemp -d)
trap 'rm -rf "$workspace"' EXIT
git clone -q "$PWD" "$workspace/PostStore"
revision=$(git rev-parse HEAD)

app() {
    local name=$1 label=$2 traits=$3 product=$4
    write_app_package "$workspace/$name" "url: \"file://$workspace/PostStore\", revision: \"$revision\"$traits" "$product"
    swift package --package-path "$workspace/$name" resolve >/dev/null 2>&1
    local start end built
    start=$(date +%s.%N)
    swift build --package-path "$workspace/$name" >"$workspace/$name.log" 2>&1 || {
        cat "$workspace/$name.log" >&2
        exit 1
    }
    end=$(date +%s.%N)
    # SwiftPM makes a folder for every target of the graph: what was compiled is a module in Modules/, or a C
    # target's objects.
    built=$(
        cd "$workspace/$name/.build/debug"
        for module in NIOCore PostgresNIO; do [[ -e Modules/$module.swiftmodule ]] && echo "$module"; done
        [[ -n $(find CNIOBoringSSL.build -name "*.o" -print -quit 2>/dev/null) ]] && echo CNIOBoringSSL
        true
    )
    built=$(echo $built)
    printf '%-32s %6.1f s   %s\n' "$label" "$(awk "BEGIN { print $end - $start }")" "${built:-no NIO, no postgres-nio}"
}

echo "PostStore $revision, $(nproc) cores; a clean debug build of an app target that imports:"
app full "PostStoreLive, default traits" "" PostStoreLive
app lean "PostStoreLive, traits: []" ", traits: []" PostStoreLive
app core "PostStore (the core alone)" "" PostStore
