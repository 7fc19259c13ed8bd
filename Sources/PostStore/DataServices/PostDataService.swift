/// Where posts come from: a source a ``SyncService`` pulls from.
///
/// ``HTTPPostDataService`` (a JSONPlaceholder-style server) and ``FilePostDataService`` (a JSON file or standard
/// input) are the live implementations; tests inject a stub. A data service checks the whole payload before it
/// returns (see ``PostPayload``), so what it returns can be committed as it is.
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
}
