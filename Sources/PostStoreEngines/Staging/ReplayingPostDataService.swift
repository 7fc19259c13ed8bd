package import PostStore
import Synchronization

/// A data service that fetches once, then answers every later request with what the first one got.
///
/// A first sync that stages its store (``NewStoreStaging``) and then finds that another process
/// created the store meanwhile syncs into that store with the posts it has already read: standard input cannot be
/// read twice, and a second download could differ from what the report of the first one said. The same holds for a
/// source's whole copy through its changes feed (a request without a token); a request for the changes since a
/// token (the store another process created holds a checkpoint) goes to the source.
package final class ReplayingPostDataService: PostChangesSource {
    /// The real source.
    package let wrapped: any PostDataService
    private let first = Mutex<PostStreamResult?>(nil)
    private let firstCopy = Mutex<PostChangesResult?>(nil)

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

    /// The first whole copy's answer again; the changes since a token from the source. A source without a feed
    /// answers as ``PostChangesSource`` says: its posts without a feed, and `mustRefetch` for a token.
    package func fetchChanges(_ request: PostChangesRequest) async throws -> PostChangesResult {
        guard let feed = wrapped as? any PostChangesSource else {
            guard request.since == nil else { return .mustRefetch("\(source) offers no changes feed") }
            return .withoutFeed(try await streamPosts(PostFetchRequest(etag: request.etag, progress: request.progress)))
        }
        guard request.since == nil else { return try await feed.fetchChanges(request) }
        if let replay = firstCopy.withLock({ $0 }) { return replay }
        let result = try await feed.fetchChanges(request)
        firstCopy.withLock { $0 = result }
        return result
    }
}
