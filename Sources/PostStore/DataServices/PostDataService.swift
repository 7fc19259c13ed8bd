/// Where posts come from: a source a ``SyncService`` pulls from.
///
/// `HTTPPostDataService` (module `PostStoreHTTP`: a JSONPlaceholder-style server) and ``FilePostDataService`` (a
/// JSON file or standard input) are the live implementations; tests inject a stub. A data service checks every
/// post it hands over (see ``PostJSON``): before ``streamPosts(_:)`` returns, or as the store reads the stream,
/// whose reader throws at the first problem and so rolls the store's write back.
///
/// One requirement, a stream: it is what ``SyncService`` needs to sync a source of any size in bounded memory (a
/// file is read a piece at a time while the store writes), and a source that holds its posts in memory anyway
/// wraps them in ``PostStream/init(_:)`` at no cost. A second requirement that returns an array would be a second
/// way to do the same thing, for every conformer to keep in step; callers who want an array use
/// ``fetchAllPosts(progress:)``, which reads the stream.
///
/// For example, a source of fixed posts:
///
/// ```swift
/// struct FixedPostDataService: PostDataService {
///     let posts: [Post]
///     var source: String { "fixed" }
///     func streamPosts(_ request: PostFetchRequest) async throws -> PostStreamResult {
///         .posts(PostStream(posts), etag: nil, pages: 1)  // or .notModified when request.etag still matches
///     }
/// }
/// ```
public protocol PostDataService: Sendable {
    /// Names the source in reports and logs, and keys its ``SyncState`` in the store: a URL, a file path, `-`.
    var source: String { get }

    /// Fetches every post the source holds, as a stream the store reads while it writes them.
    ///
    /// - Parameter request: The `ETag` of the last sync, if the caller wants a conditional request, and where to
    ///   report progress.
    /// - Returns: The stream, or ``PostStreamResult/notModified`` when the source says nothing changed since the
    ///   `ETag`. A stream makes a new reader from the first post each time it is asked, so a store can retry its
    ///   write.
    /// - Throws: ``PostStoreError``: `invalidData` for a bad payload, `sourceNotFound`, `sourceUnavailable`,
    ///   `ioFailure`; `CancellationError` when the task is cancelled. Problems found while the stream is read are
    ///   thrown by its reader.
    func streamPosts(_ request: PostFetchRequest) async throws -> PostStreamResult
}

extension PostDataService {
    /// Fetches every post the source holds into one array, unconditionally.
    ///
    /// For a look at a source, a test or a small one: a sync streams instead (see ``streamPosts(_:)``), so that a
    /// large source is never held whole.
    ///
    /// For example:
    ///
    /// ```swift
    /// let posts = try await FilePostDataService(path: "Samples/posts.json").fetchAllPosts()
    /// ```
    ///
    /// - Parameter progress: Called for each page fetched and each retry.
    /// - Returns: The posts, in the source's order.
    /// - Throws: What ``streamPosts(_:)`` and its reader throw; ``PostStoreError/Code/sourceUnavailable`` if the
    ///   source answers "not modified" to this request, which carries no `ETag`.
    public func fetchAllPosts(progress: @escaping @Sendable (SyncProgress) -> Void = { _ in }) async throws -> [Post] {
        switch try await streamPosts(PostFetchRequest(progress: progress)) {
        case .posts(let stream, _, _):
            var reader = try stream.makeReader()
            return try reader.readAll()
        case .notModified:
            throw PostStoreError(
                .sourceUnavailable,
                "\(source) answered \"not modified\" to a request without an ETag; it has no posts to compare with."
            )
        }
    }
}
