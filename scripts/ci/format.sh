#!/usr/bin/env bash
# Formats the package's Swift sources with the toolchain's `swift format` and the rules in .swift-format, then
# lints them with --strict so that anything the formatter cannot fix fails.
#
# Usage:
#   scripts/ci/format.sh           format in place, then lint (what CI runs, failing when a file changed)
#   scripts/ci/format.sh --check   lint only, change nothing; exits non-zero on any finding
set -euo pipefail

usage() {
    echo "usage: $0 [--check]" >&2
    exit 64
}

check_only=false
case "$#" in
    0) ;;
    1) [[ "$1" == "--check" ]] && check_only=true || usage ;;
    *) usage ;;
esac

cd "$(dirname "${BASH_SOURCE[0]}")/../.."

# Only the paths this checkout has: a package may not have Tests or Migrations yet.
paths=()
for candidate in Package.swift Sources Tests Migrations Benchmarks/Package.swift Benchmarks/Sources \
    Benchmarks/Concurrency/Package.swift Benchmarks/Concurrency/Sources; do
    if [[ -e "$candidate" ]]; then
        paths+=("$candidate")
    fi
done
if [[ ${#paths[@]} -eq 0 ]]; then
    echo "format.sh: nothing to format (no Package.swift, Sources, Tests or Migrations here)" >&2
    exit 1
fi

# The files scripts/ci/doc-snippets.py makes from the documentation keep the documentation's layout: they are left out.
files=()
while IFS= read -r -d '' file; do
    files+=("$file")
done < <(find "${paths[@]}" -name '*.swift' -not -path 'Tests/DocumentationSnippetTests/Generated/*' -print0 | sort -z)

if ! "$check_only"; then
    swift format format --in-place --parallel "${files[@]}"
fi

swift format lint --strict --parallel "${files[@]}"
