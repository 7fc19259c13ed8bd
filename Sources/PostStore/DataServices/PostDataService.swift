/// Where posts come from: a source a ``SyncService`` pulls from.
///
/// `HTTPPostDataService` (a JSONPlaceholder-style server) and ``FilePostDataService`` (a JSON file or standard
/// input) are the live implementations; tests inject a stub. A data service checks every post it hands over (see
/// ``PostJSON``): ``fetchPosts(_:)`` checks the whole payload before it returns; the reader of
/// ``streamPosts(_:)`` checks each post as the store reads it and throws at the first problem, which rolls the
/// store's write back.
///
/// For example, a source of fixed posts:
///
/// ```swift
/// struct FixedPostDataService: PostDataService {
///     let posts: [Post]
///     var source: String { "fixed" }
///     func fetchPosts(_ request: PostFetchRequest) async throws -> PostFetchResult {
///         .posts(posts, etag: nil, pages: 1)
///     }
/// }
/// ```
public protocol PostDataService: Sendable {
    /// Names the source in reports and logs, and keys its ``SyncState`` in the store: a URL, a file path, `-`.
    var source: String { get }

    /// Fetches every post the source holds.
    ///
    /// - Parameter request: The `ETag` of the last sync, if the caller wants a conditional request, and where to
    ///   report progress.
    /// - Returns: The posts, or ``PostFetchResult/notModified`` when the source says nothing changed since the
    ///   `ETag`.
    /// - Throws: ``PostStoreError``: `invalidData` for a bad payload, `sourceNotFound`, `sourceUnavailable`,
    ///   `ioFailure`; `CancellationError` when the task is cancelled.
    func fetchPosts(_ request: PostFetchRequest) async throws -> PostFetchResult

    /// Fetches every post the source holds as a stream, read while the store writes them: how ``SyncService``
    /// fetches, so a large source need not be held in memory whole.
    ///
    /// The default implementation returns ``fetchPosts(_:)``'s posts; ``FilePostDataService`` reads its file a piece
    /// at a time instead.
    ///
    /// - Parameter request: As for ``fetchPosts(_:)``.
    /// - Returns: The stream, or ``PostStreamResult/notModified``.
    /// - Throws: As ``fetchPosts(_:)``; problems in the payload found while it streams are thrown by its reader.
    func streamPosts(_ request: PostFetchRequest) async throws -> PostStreamResult
}

extension PostDataService {
    public func streamPosts(_ request: PostFetchRequest) async throws -> PostStreamResult {
        switch try await fetchPosts(request) {
        case .posts(let posts, let etag, let pages): .posts(PostStream(posts), etag: etag, pages: pages)
        case .notModified: .notModified
        }
    }
}
