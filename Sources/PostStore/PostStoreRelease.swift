// Not `PostStoreVersion`: the symbol graph tools leave out a type named after its module and "Version", so DocC
// would not show it.

/// The release of PostStore this is: the one place its version is written.
///
/// `poststore --version` prints it, and `scripts/ci/release-check.sh` (run by CI) checks that it is the latest release
/// of `CHANGELOG.md` and, in a clone that has it, that release's git tag. PostStore follows semantic versioning:
/// before 1.0.0 a minor release may break the API, and the changelog says so.
public enum PostStoreRelease {
    /// The version as `MAJOR.MINOR.PATCH`, for example `0.1.0`.
    public static let version = "0.1.0"
}
