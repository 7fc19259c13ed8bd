#!/usr/bin/env bash
# Builds the DocC documentation of every library target that has a catalog (Sources/TARGET/TARGET.docc) with the
# toolchain's `docc`, treating every warning as an error: a link to a symbol or article that does not exist, a
# parameter documented that the function does not have, a malformed directive. CI runs it.
#
# It dumps every module's symbol graph with `swift package dump-symbol-graph`, which reuses the main debug build (CI
# runs it right after `swift build --build-tests`: no second build), then runs `docc convert CATALOG
# --warnings-as-errors` on each catalog with that target's graphs. The archives are written to a temporary folder and
# deleted, unless --output names a folder to keep them in.
#
# Usage:
#   scripts/ci/docs.sh                  check the documentation
#   scripts/ci/docs.sh --output DIR     check it and keep the archives (DIR/TARGET.doccarchive)
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

cd "$(dirname "${BASH_SOURCE[0]}")/../.."

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

mkdir -p "$work/archives"

started=$SECONDS
echo "==> symbol graphs: swift package dump-symbol-graph"
dump_log="$work/dump.log"
if ! swift package dump-symbol-graph --emit-extension-block-symbols >"$dump_log" 2>&1; then
    cat "$dump_log" >&2
    echo "docs.sh: swift package dump-symbol-graph failed" >&2
    exit 1
fi
# Its last line names the folder: "Files written to PATH".
all_graphs=$(sed -n 's/^Files written to //p' "$dump_log" | tail -n 1)
[[ -d "$all_graphs" ]] || { cat "$dump_log" >&2; echo "docs.sh: no symbol graph folder in the output above" >&2; exit 1; }

status=0
for target in "${targets[@]}"; do
    # docc gets only the target's own graphs (TARGET.symbols.json and its extensions of other modules,
    # TARGET@OTHER.symbols.json).
    graphs="$work/graphs/$target"
    mkdir -p "$graphs"
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
