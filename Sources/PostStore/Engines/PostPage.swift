/// A window of a query's posts, with what a server sends beside it, read from one state of a store.
package struct PostPage: Sendable, Equatable {
    /// The posts of the query's window, in its order.
    package var posts: [Post]
    /// How many posts the query selects without its limit and offset.
    package var total: Int
    /// The store's revision in that state (``PostPageReading/revision()``), or `nil` when it keeps none.
    package var revision: String?

    package init(posts: [Post], total: Int, revision: String?) {
        self.posts = posts
        self.total = total
        self.revision = revision
    }

    /// The total of a query's window of `posts` when the window alone tells it — a window that is not full and
    /// does not start past the end (`offset` plus what it holds) — else `nil`, and the matches must be counted.
    package static func totalOfPartialWindow(_ posts: [Post], of query: PostQuery) -> Int? {
        guard query.limit.map({ posts.count < $0 }) ?? true, !posts.isEmpty || query.offset == 0 else { return nil }
        return query.offset + posts.count
    }
}
