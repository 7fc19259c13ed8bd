package import PostStore

/// A data service's answer with its stream read to the end, for tests to compare: a ``PostStreamResult`` holds a
/// stream, which has no equality.
package enum CollectedPosts: Equatable {
    /// The posts the stream held, the `ETag` and how many requests they took.
    case posts([Post], etag: String?, pages: Int)
    /// The source's posts have not changed since the request's `ETag`.
    case notModified
}

extension PostDataService {
    /// Streams the source's posts and reads the stream to its end.
    ///
    /// - Parameter request: The request.
    /// - Returns: What the source answered, its posts read.
    /// - Throws: What ``PostDataService/streamPosts(_:)`` or the stream's reader throws.
    package func collectPosts(_ request: PostFetchRequest) async throws -> CollectedPosts {
        switch try await streamPosts(request) {
        case .posts(let stream, let etag, let pages):
            var reader = try stream.makeReader()
            return .posts(try reader.readAll(), etag: etag, pages: pages)
        case .notModified:
            return .notModified
        }
    }
}
