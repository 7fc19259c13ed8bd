#!/usr/bin/env bash
# Measures first clean build times, the way a newcomer meets them: `swift build --product poststore` in a fresh clone
# of this repository, and an app package that depends on the PostStore library alone (its smallest product). Each
# build starts from an empty build folder; the Swift packages come from SwiftPM's cache or mirror as usual.
#
# Usage:
#   scripts/benchmarks/build-times.sh [--product NAME] [--commit REV]
#
#   --product NAME   the library product the app depends on (default PostStore)
#   --commit REV     measure this commit instead of HEAD (to compare two commits side by side in one session)
#
# Prints one line a build with its wall time, and the modules the app's build compiled (so a dependency that should
# not be there shows). Results and their dates: scripts/benchmarks/build-times.md. Exits 1 if a build fails, 64 on a bad
# option.
set -euo pipefail
# shellcheck source=scripts/lib/usage_support.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib/usage_support.sh"
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

product=PostStore
commit=HEAD
while (($#)); do
    case "$1" in
        --commit)
            [[ $# -ge 2 && -n "$2" ]] || usage 64
            commit=$2
            shift 2
            ;;
        --product)
            [[ $# -ge 2 && -n "$2" ]] || usage 64
            product=$2
            shift 2
            ;;
        -h | --help) usage 0 ;;
        *) usage 64 ;;
    esac
done

work=$(mktemp -d "${TMPDIR:-/tmp}/build-times-XXXXXX")
trap 'rm -rf "$work"' EXIT
git clone -q . "$work/poststore"
git -C "$work/poststore" checkout -q "$(git rev-parse --verify "$commit^{commit}")"

# Times `swift build ARGS` in FOLDER; prints the seconds.
timed_build() {
    local folder=$1 log=$2
    shift 2
    local start end
    start=$(date +%s.%N)
    if ! (cd "$folder" && swift build "$@") >"$log" 2>&1; then
        echo "error: swift build $* failed in $folder:" >&2
        tail -20 "$log" >&2
        exit 1
    fi
    end=$(date +%s.%N)
    python3 -c "print(f'{$end - $start:.1f}')"
}

seconds=$(timed_build "$work/poststore" "$work/cli.log" --product poststore)
echo "swift build --product poststore (fresh clone, empty .build): $seconds s"

mkdir -p "$work/app/Sources/App"
cat >"$work/app/Package.swift" <<EOF
// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "App",
    platforms: [.macOS(.v15)],
    dependencies: [.package(path: "$work/poststore")],
    targets: [.executableTarget(name: "App", dependencies: [.product(name: "$product", package: "poststore")])]
)
EOF
cat >"$work/app/Sources/App/main.swift" <<EOF
import $product

print("linked $product")
EOF
seconds=$(timed_build "$work/app" "$work/app.log")
echo "an app depending on the $product product alone (empty .build): $seconds s"
modules=$(grep -oE 'Compiling [A-Za-z0-9_]+' "$work/app.log" | awk '{print $2}' | sort -u | tr '\n' ' ')
echo "modules the app's build compiled: $modules"
# What the app's executable links beyond the toolchain's runtime: an app on the core alone must not link SQLite or
# FoundationNetworking (with its libcurl).
if command -v ldd >/dev/null; then
    app=$(cd "$work/app" && swift build --show-bin-path)/App
    linked=$(ldd "$app" | { grep -oE 'lib(sqlite3|FoundationNetworking|curl)[^ ]*' || true; } | sort -u | tr '\n' ' ')
    echo "of libsqlite3, FoundationNetworking and libcurl, the app links: ${linked:-none}"
fi
