/// The version of PostStore: the one place it is written.
///
/// `poststore --version` prints it, and `scripts/release-check.sh` (run by CI) checks that it is the latest release
/// of `CHANGELOG.md` and, in a clone that has it, that release's git tag. PostStore follows semantic versioning:
/// before 1.0.0 a minor release may break the API, and the changelog says so.
public enum PostStoreVersion {
    /// The version as `MAJOR.MINOR.PATCH`, for example `0.1.0`.
    public static let current = "0.1.0"
}
