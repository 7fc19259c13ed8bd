import Synchronization

/// A data service that fetches once, then answers every later request with what the first one got.
///
/// A first sync that builds its store off to the side (``NewStoreStaging``) and then finds that another process
/// created the store meanwhile syncs into that store with the posts it has already read: standard input cannot be
/// read twice, and a second download could differ from what the report of the first one said.
package final class ReplayingPostDataService: PostDataService {
    private let wrapped: any PostDataService
    private let first = Mutex<PostStreamResult?>(nil)

    /// Wraps `wrapped`, which answers the first request.
    ///
    /// - Parameter wrapped: The real source.
    package init(_ wrapped: any PostDataService) {
        self.wrapped = wrapped
    }

    package var source: String { wrapped.source }

    /// The first request's answer. Its stream can be read again: a stream makes a new reader from the first post
    /// each time (a file is opened again, standard input and HTTP answers are held in memory).
    package func streamPosts(_ request: PostFetchRequest) async throws -> PostStreamResult {
        if let replay = first.withLock({ $0 }) { return replay }
        let result = try await wrapped.streamPosts(request)
        first.withLock { $0 = result }
        return result
    }
}
