/// Posts a data service hands to a store for one sync without holding them all: the store makes the reader when
/// its write begins and reads the posts as it writes them.
///
/// A stream over a file reads the file in pieces, so syncing a file of any size needs memory for one piece and the
/// store's own bookkeeping, not for the whole payload. A stream over posts in memory (``init(_:)``) is how sources
/// that fetch everything first, such as `HTTPPostDataService`, take part.
///
/// For example:
///
/// ```swift
/// let stream = PostStream([Post(userId: 1, id: 1, title: "Hello", body: "")])
/// let summary = try await store.apply(PostChangeSet(), streaming: stream)
/// ```
public struct PostStream: Sendable {
    private let reader: @Sendable () throws -> any PostReader

    /// Creates a stream whose readers a closure makes.
    ///
    /// - Parameter makeReader: Makes a reader that starts from the first post. A store calls it once per write it
    ///   tries (so at least once, and again when it retries), inside that write or, for stores that read the whole
    ///   stream first, just before it.
    public init(makeReader: @escaping @Sendable () throws -> any PostReader) {
        self.reader = makeReader
    }

    /// Creates a stream over posts in memory.
    ///
    /// - Parameter posts: The posts, in order.
    public init(_ posts: [Post]) {
        self.reader = { ArrayPostReader(posts) }
    }

    /// Makes a reader that starts from the first post.
    ///
    /// - Returns: The reader.
    /// - Throws: ``PostStoreError``, for example when a file cannot be opened.
    public func makeReader() throws -> any PostReader {
        try reader()
    }
}
