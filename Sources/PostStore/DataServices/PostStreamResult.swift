/// What ``PostDataService/streamPosts(_:)`` returns: a stream of the source's posts, or word that nothing changed.
public enum PostStreamResult: Sendable {
    /// The source's posts, read as the store writes them.
    ///
    /// - Parameters:
    ///   - stream: Makes readers of the posts.
    ///   - etag: The source's `ETag` for them, to send next time; `nil` if it sent none.
    ///   - pages: How many requests for posts it took.
    case posts(PostStream, etag: String?, pages: Int)

    /// The source's posts have not changed since the request's `ETag` (`304 Not Modified`).
    case notModified
}
