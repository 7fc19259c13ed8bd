/// A source that offers a changes feed, such as `poststore serve`: ``SyncService`` pulls only what changed since its
/// last sync from it, and can follow it.
///
/// `HTTPPostDataService` conforms: it reads a server's feed where the server offers one (its `GET /posts` carries a
/// `PostStore-Changes-Token`), and fetches as before from one that does not.
///
/// For example, a source that is another store of this process:
///
/// ```swift
/// struct StoreSource: PostChangesSource {
///     let store: any PostStoreProtocol
///     var source: String { "store" }
///     func streamPosts(_ request: PostFetchRequest) async throws -> PostStreamResult {
///         .posts(PostStream(try await store.query(PostQuery())), etag: nil, pages: 1)
///     }
///     func fetchChanges(_ request: PostChangesRequest) async throws -> PostChangesResult {
///         do {
///             return .changes(try await store.changes(since: request.since, limit: request.limit), pages: 1)
///         } catch let error as PostStoreError where error.code == .mustRefetch {
///             return .mustRefetch(error.message)
///         }
///     }
/// }
/// ```
public protocol PostChangesSource: PostDataService {
    /// Fetches the changes since a token, or, without one, every post and the token of their state.
    ///
    /// - Parameter request: The token, the most changes to answer, how long the source may hold the request while
    ///   there is no change, and where to report progress.
    /// - Returns: The changes; word that the token must refetch; or, for a request without a token to a source
    ///   that offers no feed, what ``PostDataService/streamPosts(_:)`` would return.
    /// - Throws: ``PostStoreError``: `invalidData` for an answer that is malformed or contradicts itself or the
    ///   request, and the errors of ``PostDataService/streamPosts(_:)``; `CancellationError` when the task is
    ///   cancelled.
    func fetchChanges(_ request: PostChangesRequest) async throws -> PostChangesResult
}

/// What a ``SyncService`` asks of a ``PostChangesSource``.
public struct PostChangesRequest: Sendable {
    /// The token the copy stands at, or `nil` for every post.
    public var since: ChangeToken?
    /// How many changes to answer at most (a source answers more when one write holds more).
    public var limit: Int
    /// How long the source may hold the request while it has no change since the token: a long poll. Zero answers
    /// at once.
    public var wait: Duration
    /// The `ETag` of the last whole copy, for a request without a token: a source answers
    /// ``PostStreamResult/notModified`` (inside ``PostChangesResult/withoutFeed(_:)``) or no change when it still
    /// holds those posts.
    public var etag: String?
    /// Called as the answer downloads and for each retry, for a progress display.
    public var progress: @Sendable (SyncProgress) -> Void

    /// Creates a request.
    ///
    /// - Parameters:
    ///   - since: The token the copy stands at, or `nil` for every post.
    ///   - limit: How many changes to answer at most.
    ///   - wait: How long the source may hold the request while there is no change.
    ///   - etag: The `ETag` of the last whole copy.
    ///   - progress: Called as the answer downloads and for each retry.
    public init(
        since: ChangeToken?,
        limit: Int = PostChanges.defaultLimit,
        wait: Duration = .zero,
        etag: String? = nil,
        progress: @escaping @Sendable (SyncProgress) -> Void = { _ in }
    ) {
        self.since = since
        self.limit = limit
        self.wait = wait
        self.etag = etag
        self.progress = progress
    }
}

/// What ``PostChangesSource/fetchChanges(_:)`` returns.
public enum PostChangesResult: Sendable {
    /// The changes since the request's token (every post when it had none), and how many requests they took.
    case changes(PostChanges, pages: Int)
    /// The source cannot tell the changes since the token: it comes from another store, one made again, or lies
    /// outside the source's history. The reason, for a person; fetch every post again.
    case mustRefetch(String)
    /// The source's posts have not changed since the request's `ETag` (`304 Not Modified` to a request without a
    /// token), and they stand at this token: a sync confirms its `ETag` and records the token as its checkpoint.
    case notModified(next: ChangeToken)
    /// The source offers no changes feed: what a whole fetch returned (for a request without a token only).
    case withoutFeed(PostStreamResult)
}
