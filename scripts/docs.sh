#!/usr/bin/env bash
# Builds the DocC documentation of every library target that has a catalog (Sources/TARGET/TARGET.docc) with the
# toolchain's `docc`, treating every warning as an error: a link to a symbol or article that does not exist, a
# parameter documented that the function does not have, a malformed directive. CI runs it.
#
# It emits the targets' symbol graphs with `swift build` in its own build folder (.build-docs), so the main build is
# left alone, then runs `docc convert CATALOG --warnings-as-errors` on each catalog with that target's graphs. The
# archives are written to a temporary folder and deleted, unless --output names a folder to keep them in.
#
# Usage:
#   scripts/docs.sh                  check the documentation
#   scripts/docs.sh --output DIR     check it and keep the archives (DIR/TARGET.doccarchive)
set -euo pipefail

usage() {
    echo "usage: $0 [--output DIR]"
}

output=""
while (($#)); do
    case "$1" in
        -h | --help) usage; exit 0 ;;
        --output) [[ $# -ge 2 ]] || { usage >&2; exit 64; }; output=$2; shift 2 ;;
        *) echo "docs.sh: unknown option $1" >&2; usage >&2; exit 64 ;;
    esac
done

cd "$(dirname "${BASH_SOURCE[0]}")/.."

# The toolchain's docc: beside `swift` (what `xcrun --find docc` answers on macOS), else on PATH.
docc=""
if command -v xcrun >/dev/null 2>&1; then
    docc=$(xcrun --find docc 2>/dev/null || true)
fi
if [[ -z "$docc" ]]; then
    swift_path=$(command -v swift || true)
    if [[ -n "$swift_path" ]]; then
        candidate="$(dirname "$(readlink -f "$swift_path")")/docc"
        [[ -x "$candidate" ]] && docc=$candidate
    fi
fi
if [[ -z "$docc" ]]; then
    docc=$(command -v docc || true)
fi
if [[ -z "$docc" ]]; then
    echo "docs.sh: no docc found beside swift or on PATH; install a Swift toolchain that ships it" >&2
    exit 69
fi

# Every library target with a catalog named after it.
targets=()
for catalog in Sources/*/*.docc; do
    [[ -d "$catalog" ]] || continue
    target=$(basename "$(dirname "$catalog")")
    [[ "$(basename "$catalog" .docc)" == "$target" ]] || {
        echo "docs.sh: $catalog is not named after its target ($target.docc)" >&2
        exit 1
    }
    targets+=("$target")
done
if ((${#targets[@]} == 0)); then
    echo "docs.sh: no catalog found (Sources/TARGET/TARGET.docc)" >&2
    exit 1
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/poststore-docs.XXXXXX")
trap 'rm -rf "$work"' EXIT

# The compiler writes a module's graph only when it compiles the module, so the graphs live beside the build they
# come from: an incremental build leaves an unchanged module's graph in place.
all_graphs=.build-docs/symbol-graphs
mkdir -p "$all_graphs" "$work/archives"

started=$SECONDS
status=0
for target in "${targets[@]}"; do
    echo "==> $target: symbol graph"
    graphs="$work/graphs/$target"  # the target's own graphs only
    mkdir -p "$graphs"
    # The flag reaches every module the target builds, so the folder also holds its dependencies' graphs; docc gets
    # only the target's own (TARGET.symbols.json and its extensions of other modules, TARGET@OTHER.symbols.json).
    swift build --scratch-path .build-docs --target "$target" \
        -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$all_graphs" \
        -Xswiftc -emit-extension-block-symbols
    cp "$all_graphs/$target.symbols.json" "$graphs/"
    for extension in "$all_graphs/$target@"*.symbols.json; do
        [[ -e "$extension" ]] && cp "$extension" "$graphs/"
    done

    echo "==> $target: docc convert --warnings-as-errors"
    archive="$work/archives/$target.doccarchive"
    if ! "$docc" convert "Sources/$target/$target.docc" \
        --additional-symbol-graph-dir "$graphs" \
        --fallback-display-name "$target" \
        --fallback-bundle-identifier "com.poststore.$target" \
        --warnings-as-errors \
        --output-path "$archive"; then
        echo "docs.sh: $target's documentation has the problems above" >&2
        status=1
        continue
    fi
    if [[ -n "$output" ]]; then
        mkdir -p "$output"
        rm -rf "${output:?}/$target.doccarchive"
        cp -R "$archive" "$output/"
        echo "kept $output/$target.doccarchive"
    fi
done
echo "docs: $((SECONDS - started)) s"
exit "$status"
