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

extension PostFetchResult {
    /// Two results are equal when they are the same case with equal values, the `ETag` compared byte for byte.
    ///
    /// An `ETag` is an opaque value a server compares byte for byte; Swift's `String ==` would take two that differ
    /// only in Unicode normalization for one. Posts compare as ``Post/==(_:_:)`` does.
    public static func == (lhs: PostFetchResult, rhs: PostFetchResult) -> Bool {
        switch (lhs, rhs) {
        case (.posts(let lhsPosts, let lhsETag, let lhsPages), .posts(let rhsPosts, let rhsETag, let rhsPages)):
            lhsPosts == rhsPosts && lhsETag.map { Array($0.utf8) } == rhsETag.map { Array($0.utf8) }
                && lhsPages == rhsPages
        case (.notModified, .notModified):
            true
        default:
            false
        }
    }

    /// Hashes the result, the `ETag` byte for byte, consistently with ``==(_:_:)``.
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .posts(let posts, let etag, let pages):
            hasher.combine(0)
            hasher.combine(posts)
            hasher.combine(etag.map { Array($0.utf8) })
            hasher.combine(pages)
        case .notModified:
            hasher.combine(1)
        }
    }
}
