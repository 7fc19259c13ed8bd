public import PostStore
import Synchronization

/// A data service that returns the posts it is given (by default ten sample posts), or a chosen error, and
/// records the ETag of every request.
///
/// Inject it where an `HTTPPostDataService` or a `FilePostDataService` would go: it is how a test fakes the
/// network, with no server and no transport to script. With `honoursETag`, a request carrying the ETag of the posts
/// it serves gets `PostStreamResult.notModified`, as a server would.
///
/// For example:
///
/// ```swift
/// let source = StubPostDataService(posts: SamplePosts.make(count: 3))
/// source.fail(with: PostStoreError(.sourceUnavailable, "offline"))  // later fetches throw
/// ```
public final class StubPostDataService: PostDataService {
    /// What a fetch does.
    public enum Answer: Sendable {
        /// Returns these posts, with the source's `ETag` for them and the number of requests they took.
        case posts([Post], etag: String? = nil, pages: Int = 1)
        /// Says the posts have not changed since the request's `ETag`, whatever it is.
        case notModified
        /// Throws this error.
        case failure(PostStoreError)
    }

    /// The source's name, as reports and sync states show it.
    public let source: String
    private let honoursETag: Bool
    private let state: Mutex<(answer: Answer, etags: [String?])>

    /// Creates a service.
    ///
    /// - Parameters:
    ///   - source: The source's name.
    ///   - posts: The posts to serve; by default ``SamplePosts/make(count:firstId:)`` with 10.
    ///   - etag: The ETag to serve them with.
    ///   - honoursETag: Whether a request with that ETag gets "not modified".
    public init(
        source: String = "stub://posts",
        posts: [Post] = SamplePosts.make(count: 10),
        etag: String? = nil,
        honoursETag: Bool = false
    ) {
        self.source = source
        self.honoursETag = honoursETag
        state = Mutex((.posts(posts, etag: etag), []))
    }

    /// Makes later fetches answer this way.
    ///
    /// - Parameter answer: Posts, "not modified" or an error.
    public func answer(_ answer: Answer) { state.withLock { $0.answer = answer } }

    /// Makes later fetches return these posts.
    ///
    /// - Parameters:
    ///   - posts: The posts.
    ///   - etag: Their ETag.
    public func serve(_ posts: [Post], etag: String? = nil) { answer(.posts(posts, etag: etag)) }

    /// Makes later fetches throw.
    ///
    /// - Parameter error: The error.
    public func fail(with error: PostStoreError) { answer(.failure(error)) }

    /// The ETag of every request so far, in order (`nil` for an unconditional one).
    public var requestedETags: [String?] { state.withLock { $0.etags } }

    /// How many fetches were made.
    public var fetchCount: Int { state.withLock { $0.etags.count } }

    /// Records the request and answers as set.
    ///
    /// - Parameter request: The request.
    /// - Returns: A stream of the posts, or "not modified".
    /// - Throws: The error set with ``fail(with:)``.
    public func streamPosts(_ request: PostFetchRequest) async throws -> PostStreamResult {
        let answer = state.withLock { state in
            state.etags.append(request.etag)
            return state.answer
        }
        switch answer {
        // Byte for byte, as a server compares `If-None-Match`; `String ==` would ignore Unicode normalization.
        case .posts(_, let etag?, _) where honoursETag && request.etag.map { Array($0.utf8) } == Array(etag.utf8):
            return .notModified
        case .posts(let posts, let etag, let pages):
            // Fetched as a real source's pages would be, all at once: a downloading phase that starts and ends.
            let downloading = WorkProgress(phase: .downloading, completed: 0, total: posts.count, pages: 0)
            request.progress(.working(downloading))
            request.progress(.working(WorkProgress(phase: .downloading, completed: posts.count, pages: pages).finished))
            return .posts(PostStream(posts), etag: etag, pages: pages)
        case .notModified:
            return .notModified
        case .failure(let error):
            throw error
        }
    }
}
