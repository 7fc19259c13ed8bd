#!/usr/bin/env bash
# Checks the release record and the public API against the last release (CI runs it):
#
#   - the latest release in CHANGELOG.md (`## [X.Y.Z] - DATE`) is PostStoreRelease.version, what `poststore
#     --version` prints;
#   - its release commit (the line `Release commit: HASH` under it) is in this clone, and so is its tag when the
#     clone has tags: the annotated tag X.Y.Z on that commit;
#   - the dependency line that README.md and the guide give (`.package(url: "https://github.com/poststore/
#     PostStore.git", revision: "HASH")`) names that release commit, and resolves: a package that depends on a clone
#     of this repository with that requirement resolves with `swift package resolve` (the repository publishes no
#     tags, so a `from:` requirement would not);
#   - `swift package diagnose-api-breaking-changes` finds no break of any library module's public API since that
#     commit, except the breaks CHANGELOG.md's "Unreleased" section declares, one a line, as the tool words them:
#     `- API breakage: func Post.foo() has been removed` (a deliberate break is said there, once).
#
# The baseline API of each release is committed under API/baselines/COMMIT/ (swift-api-digester's JSON, made on
# Linux), so the check builds only the current code, which the build before it already compiled.
#
# Usage:
#   scripts/ci/release-check.sh              the check (what CI runs)
#   scripts/ci/release-check.sh --baseline   after tagging a release: make API/baselines/COMMIT/ for it (builds the
#                                         release in a worktree of its own: minutes), then commit the folder
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

fail() {
    echo "release-check: $*" >&2
    exit 1
}

case "${1:-}" in
    "") make_baseline=false ;;
    --baseline) make_baseline=true ;;
    *)
        echo "usage: $0 [--baseline]" >&2
        exit 64
        ;;
esac

# The latest release: the first `## [X.Y.Z]` heading, and the `Release commit:` line of its section.
version=$(sed -nE 's/^## \[([0-9]+\.[0-9]+\.[0-9]+)\].*/\1/p' CHANGELOG.md | head -n 1)
if [[ -z $version ]]; then
    # Before the first release there is no API to keep: the check starts with it.
    echo "release-check: CHANGELOG.md records no release yet ('## [X.Y.Z] - DATE'): nothing to compare"
    exit 0
fi
commit=$(awk -v heading="## [$version]" '
    index($0, heading) == 1 { inside = 1; next }
    inside && /^## / { exit }
    inside && match($0, /Release commit: `[0-9a-f]+`/) { print substr($0, RSTART + 17, RLENGTH - 18); exit }
' CHANGELOG.md)

code_version=$(sed -nE 's/.*static let version[^=]*= "([^"]+)".*/\1/p' Sources/PostStore/PostStoreRelease.swift)
[[ $code_version == "$version" ]] ||
    fail "PostStoreRelease.version is '$code_version' but CHANGELOG.md's latest release is $version"

tag_commit=""
if git rev-parse -q --verify "refs/tags/$version" >/dev/null; then
    [[ $(git cat-file -t "refs/tags/$version") == tag ]] || fail "tag $version is not annotated (git tag -a)"
    tag_commit=$(git rev-parse "$version^{commit}")
fi

if "$make_baseline"; then
    [[ -n $tag_commit ]] || fail "tag the release first: git tag -a $version -m 'PostStore $version' COMMIT"
    rm -rf "API/baselines/$tag_commit"
    swift package diagnose-api-breaking-changes "$tag_commit" --baseline-dir API/baselines --regenerate-baseline
    echo "release-check: made API/baselines/$tag_commit; write 'Release commit: \`$tag_commit\`' under" \
        "'## [$version]' in CHANGELOG.md and commit both" >&2
    exit 0
fi

[[ -n $commit ]] || fail "CHANGELOG.md's section of $version has no line 'Release commit: \`HASH\`'"
git cat-file -e "$commit^{commit}" 2>/dev/null || fail "the release commit $commit of $version is not in this clone"
commit=$(git rev-parse "$commit^{commit}")
[[ -z $tag_commit || $tag_commit == "$commit" ]] ||
    fail "tag $version is on $tag_commit, but CHANGELOG.md records $commit"
[[ -d API/baselines/$commit ]] ||
    fail "API/baselines/$commit is missing: run scripts/ci/release-check.sh --baseline in a clone with the tag"

echo "release-check: $version, release commit $commit${tag_commit:+ (tag $version)}, PostStoreRelease.version agrees"

# The documented dependency: each distinct requirement must be the release commit's, and resolve from a clone.
address="https://github.com/poststore/PostStore.git"
mapfile -t requirements < <(
    grep -ho "\.package(url: \"$address\", [^)]*)" README.md Sources/*/*.docc/*.md |
        sed -E "s|.*\"$address\", (.*)\)|\1|; s|, traits: \[[^]]*\]||" | sort -u
)
((${#requirements[@]})) || fail "README.md and the guide give no .package(url: \"$address\", …) line"
for requirement in "${requirements[@]}"; do
    [[ $requirement == "revision: \"$commit\"" ]] ||
        fail "the documented dependency says '$requirement', not the release commit of $version: revision: \"$commit\""
done
workspace=$(mktemp -d)
trap 'rm -rf "$workspace"' EXIT
git clone -q "$PWD" "$workspace/PostStore"
source scripts/lib/app_package.sh
write_app_package "$workspace/App" "url: \"file://$workspace/PostStore\", ${requirements[0]}" PostStore
swift package --package-path "$workspace/App" resolve >"$workspace/resolve.log" 2>&1 || {
    cat "$workspace/resolve.log" >&2
    fail "the documented dependency ($address, ${requirements[0]}) does not resolve from a clone"
}
echo "release-check: the documented dependency (${requirements[0]}) resolves from a clone"

# The breaks the next release declares: the "Unreleased" section's `- API breakage: …` lines.
allowed="$workspace/allowed"
awk '
    /^## \[?Unreleased/ { inside = 1; next }
    inside && /^## / { exit }
    inside && /^- API breakage: / { sub(/^- /, ""); print }
' CHANGELOG.md >"$allowed"

# The modules the release had (a module added since has no API to keep yet): named, so that the tool compares them
# with the committed baseline rather than building the release again to look for the new modules there (ten
# minutes on two cores).
released=()
for baseline in "API/baselines/$commit"/*.json; do released+=("$(basename "$baseline" .json)"); done
swift package diagnose-api-breaking-changes "$commit" --baseline-dir API/baselines --breakage-allowlist-path "$allowed" \
    --targets "${released[@]}"
