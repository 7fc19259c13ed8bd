/// How much a data service accepts from its source, so a hostile or broken source fails cleanly instead of
/// exhausting memory.
///
/// A post's JSON longer than ``maximumPostBytes`` is refused wherever it comes from; ``maximumPayloadBytes`` bounds
/// what must be held in memory at once — an HTTP source's answers (all pages of one fetch together) and standard
/// input. Files are read a piece at a time, so only the post limit applies to them. Both refusals are
/// ``PostStoreError/Code/invalidData`` naming the limit, raised before anything is written.
///
/// For example:
///
/// ```swift
/// let limits = PayloadLimits(maximumPostBytes: 64 << 10, maximumPayloadBytes: 16 << 20)
/// let service = FilePostDataService(path: "posts.json", limits: limits)
/// ```
public struct PayloadLimits: Sendable, Hashable {
    /// The default ``maximumPostBytes``: 1 MiB, thousands of times a JSONPlaceholder post.
    public static let defaultMaximumPostBytes = 1 << 20

    /// The default ``maximumPayloadBytes``: 1 GiB, about three million JSONPlaceholder posts.
    public static let defaultMaximumPayloadBytes = 1 << 30

    /// The most bytes of JSON one post may take, from its `{` to its `}`.
    public var maximumPostBytes: Int

    /// The most bytes held in memory from one fetch: the bodies of its HTTP answers together, or standard input.
    public var maximumPayloadBytes: Int

    /// Creates limits.
    ///
    /// - Parameters:
    ///   - maximumPostBytes: The most bytes of JSON one post may take.
    ///   - maximumPayloadBytes: The most bytes held in memory from one fetch.
    public init(
        maximumPostBytes: Int = defaultMaximumPostBytes,
        maximumPayloadBytes: Int = defaultMaximumPayloadBytes
    ) {
        self.maximumPostBytes = maximumPostBytes
        self.maximumPayloadBytes = maximumPayloadBytes
    }

    /// Refuses limits below one byte.
    package func validate() throws(PostStoreError) {
        guard maximumPostBytes >= 1, maximumPayloadBytes >= 1 else {
            throw PostStoreError(
                .invalidArgument,
                "The size limits must be at least 1 byte (got \(maximumPostBytes) per post, "
                    + "\(maximumPayloadBytes) per payload)."
            )
        }
    }

    /// The message for a payload over ``maximumPayloadBytes``.
    package func payloadTooLarge(_ what: String) -> String {
        "\(what) is larger than the limit of \(Self.describe(bytes: maximumPayloadBytes)) held in memory at once; nothing was "
            + "written. Raise the limit if the source is right."
    }

    /// A byte count for a person: `1 MiB` when it is a whole number of KiB, MiB or GiB, else `1500 bytes`.
    static func describe(bytes count: Int) -> String {
        for (unit, shift) in [("GiB", 30), ("MiB", 20), ("KiB", 10)] where count >= 1 << shift {
            if count % (1 << shift) == 0 { return "\(count >> shift) \(unit)" }
        }
        return count == 1 ? "1 byte" : "\(count) bytes"
    }
}
