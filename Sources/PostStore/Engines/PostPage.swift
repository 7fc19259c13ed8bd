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
}
