public import PostStore
import Synchronization

/// A data service that returns the posts it is given (by default ten sample posts), or a chosen error, and
/// records the ETag of every request.
///
/// With `honoursETag`, a request carrying the ETag of the posts it serves gets `PostFetchResult.notModified`, as
/// a server would.
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
        /// Returns this result.
        case result(PostFetchResult)
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
        state = Mutex((.result(.posts(posts, etag: etag, pages: 1)), []))
    }

    /// Makes later fetches answer this way.
    ///
    /// - Parameter answer: A result or an error.
    public func answer(_ answer: Answer) { state.withLock { $0.answer = answer } }

    /// Makes later fetches return these posts.
    ///
    /// - Parameters:
    ///   - posts: The posts.
    ///   - etag: Their ETag.
    public func serve(_ posts: [Post], etag: String? = nil) { answer(.result(.posts(posts, etag: etag, pages: 1))) }

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
    /// - Returns: The posts, or "not modified".
    /// - Throws: The error set with ``fail(with:)``.
    public func fetchPosts(_ request: PostFetchRequest) async throws -> PostFetchResult {
        let answer = state.withLock { state in
            state.etags.append(request.etag)
            return state.answer
        }
        switch answer {
        // Byte for byte, as a server compares `If-None-Match`; `String ==` would ignore Unicode normalization.
        case .result(.posts(_, let etag?, _))
        where honoursETag && request.etag.map { Array($0.utf8) } == Array(etag.utf8):
            return .notModified
        case .result(let result):
            if case .posts(let posts, _, _) = result {
                request.progress(
                    .pageFetched(page: 1, posts: posts.count, fetchedSoFar: posts.count, expectedTotal: nil)
                )
            }
            return result
        case .failure(let error):
            throw error
        }
    }
}
