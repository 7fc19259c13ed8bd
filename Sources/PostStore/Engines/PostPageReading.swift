/// A store that reads a query's page, the query's total and the revision of its posts from one state, and tells its
/// revision cheaply: what a server needs to send a page with a `X-Total-Count` that fits it, and to answer
/// `If-None-Match` without reading a post.
///
/// Every engine of this package conforms. ``PostStoreProtocol/readPage(_:)`` serves any store: it uses this
/// protocol where a store has it, and falls back to reading every match where not.
package protocol PostPageReading: PostStoreProtocol {
    /// The revision of the store's posts now: an opaque text that changes whenever a write (in this process or
    /// another) changes a post, and that never stands for two different sets of posts, in this store or another
    /// (two stores may share one only when they hold the same posts). A write that changes no post (an unchanged
    /// re-sync, a sync state saved) keeps it.
    func revision() async throws -> String

    /// The posts `query` selects, how many it selects without its window, and the revision, from one state.
    func page(_ query: PostQuery) async throws -> PostPage
}

extension PostStoreProtocol {
    /// The posts `query` selects, how many it selects without its window, and the revision when the store keeps
    /// one (``PostPageReading``), from one state of the store.
    ///
    /// A store without ``PostPageReading`` reads every match of the query once and cuts the window from it: one
    /// state, at the cost of every match; its page has no revision.
    package func readPage(_ query: PostQuery) async throws -> PostPage {
        if let store = self as? any PostPageReading { return try await store.page(query) }
        try query.validate()
        let matches = try await self.query(query.withoutWindow)
        return PostPage(posts: query.window(of: matches), total: matches.count, revision: nil)
    }

    /// The store's revision (``PostPageReading/revision()``), or `nil` when it keeps none.
    package func revisionIfKept() async throws -> String? {
        try await (self as? any PostPageReading)?.revision()
    }
}
