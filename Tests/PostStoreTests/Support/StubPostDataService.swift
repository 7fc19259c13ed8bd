import Synchronization

@testable import PostStore

/// A data service that returns what a test sets, or throws a chosen error, and records the requests' ETags.
///
/// With `honoursETag`, a request carrying the ETag of the posts it serves gets `.notModified`, as a server would.
final class StubPostDataService: PostDataService {
    enum Answer: Sendable {
        case result(PostFetchResult)
        case failure(PostStoreError)
    }

    let source: String
    private let honoursETag: Bool
    private let state: Mutex<(answer: Answer, etags: [String?])>

    init(source: String = "stub://posts", posts: [Post] = [], etag: String? = nil, honoursETag: Bool = false) {
        self.source = source
        self.honoursETag = honoursETag
        state = Mutex((.result(.posts(posts, etag: etag, pages: 1)), []))
    }

    /// Makes later fetches answer this way.
    func answer(_ answer: Answer) { state.withLock { $0.answer = answer } }

    /// Makes later fetches return these posts.
    func serve(_ posts: [Post], etag: String? = nil) { answer(.result(.posts(posts, etag: etag, pages: 1))) }

    /// The `ETag` of every request so far.
    var requestedETags: [String?] { state.withLock { $0.etags } }

    func fetchPosts(_ request: PostFetchRequest) async throws -> PostFetchResult {
        let answer = state.withLock { state in
            state.etags.append(request.etag)
            return state.answer
        }
        switch answer {
        case .result(.posts(_, let etag?, _)) where honoursETag && request.etag == etag: return .notModified
        case .result(let result): return result
        case .failure(let error): throw error
        }
    }
}
