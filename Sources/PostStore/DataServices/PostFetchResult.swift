/// What a ``PostDataService`` returns.
public enum PostFetchResult: Sendable, Hashable {
    /// Every post of the source, checked: no id twice.
    ///
    /// - Parameters:
    ///   - posts: The posts, in the source's order.
    ///   - etag: The source's `ETag` for them, to send next time; `nil` if it sent none.
    ///   - pages: How many requests for posts it took: 1 for a whole list, one per page (an empty last page included).
    case posts([Post], etag: String?, pages: Int)

    /// The source's posts have not changed since the request's `ETag` (`304 Not Modified`).
    case notModified
}
