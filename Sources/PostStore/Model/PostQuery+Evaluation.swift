/// The reference semantics of ``PostQuery``: the contract's definition of every query's answer, public so that an
/// engine written elsewhere can answer over posts it holds in memory, or check its own answers, with them.
///
/// An engine that answers like ``PostQuery/evaluate(over:)`` keeps the query part of the contract; the
/// `PostStoreConformance` checks and this package's differential tests compare every engine with it.
extension PostQuery {
    /// Checks that the window is valid: what every engine runs before it answers.
    ///
    /// - Throws: ``PostStoreError/Code/invalidQuery`` when `limit` or `offset` is negative.
    public func validate() throws(PostStoreError) {
        if let limit, limit < 0 {
            throw PostStoreError(.invalidQuery, "The query's limit must not be negative (got \(limit)).")
        }
        if offset < 0 {
            throw PostStoreError(.invalidQuery, "The query's offset must not be negative (got \(offset)).")
        }
    }

    /// Whether a post passes the filters and the search.
    func admits(_ post: Post, search: TextSearch) -> Bool {
        if let ids, !ids.contains(post.id) { return false }
        if let userIds, !userIds.contains(post.userId) { return false }
        return search.matches(post)
    }

    /// Answers the query over posts held in memory: the reference implementation of ``PostQuery``'s semantics.
    ///
    /// - Parameter posts: Every post of a store, keyed by id.
    /// - Returns: The matching posts, sorted and windowed.
    /// - Throws: ``PostStoreError/Code/invalidQuery`` for a negative limit or offset.
    public func evaluate(over posts: [Int: Post]) throws(PostStoreError) -> [Post] {
        window(of: try matches(in: posts))
    }

    /// Answers the query over posts held in memory, with how many posts it selects without its window.
    ///
    /// - Parameters:
    ///   - posts: Every post of a store, keyed by id.
    ///   - revision: The store's revision, passed through to the page.
    /// - Returns: The page.
    func evaluatePage(over posts: [Int: Post], revision: String?) throws(PostStoreError) -> PostPage {
        let matches = try matches(in: posts)
        return PostPage(posts: window(of: matches), total: matches.count, revision: revision)
    }

    /// The same query without its window: every post it selects.
    package var withoutWindow: PostQuery {
        var query = self
        query.limit = nil
        query.offset = 0
        return query
    }

    /// The window of sorted matches that `offset` and `limit` select; safe for any valid window, `Int.max`
    /// included.
    ///
    /// - Parameter matches: The posts the query selects, in its order.
    /// - Returns: At most `limit` of them, after the first `offset`.
    public func window(of matches: [Post]) -> [Post] {
        Array(matches[windowRange(count: matches.count)])
    }

    /// The positions of the window in `count` sorted matches; empty when `offset` is past them.
    func windowRange(count: Int) -> Range<Int> {
        guard offset < count else { return count..<count }
        let end = limit.map { min(count, offset + min($0, count)) } ?? count
        return offset..<end
    }

    /// Every post that passes the filters and the search, sorted; the window not applied.
    private func matches(in posts: [Int: Post]) throws(PostStoreError) -> [Post] {
        try validate()
        let search = TextSearch(self.search)
        var matches: [Post]
        if let ids {
            matches = ids.compactMap { posts[$0] }.filter { admits($0, search: search) }
        } else {
            matches = posts.values.filter { admits($0, search: search) }
        }
        matches.sort(by: sort.areInIncreasingOrder)
        return matches
    }
}

extension PostQuery.Sort {
    /// The order as a strict "less than" over posts, ties broken by id: the contract's definition of each order,
    /// for `sort(by:)`.
    ///
    /// - Parameters:
    ///   - lhs: A post.
    ///   - rhs: Another post.
    /// - Returns: Whether `lhs` comes before `rhs` in this order.
    public func areInIncreasingOrder(_ lhs: Post, _ rhs: Post) -> Bool {
        areInIncreasingOrder(ids: (lhs.id, rhs.id), userIds: (lhs.userId, rhs.userId)) {
            if lhs.title.utf8.elementsEqual(rhs.title.utf8) { return 0 }
            return lhs.title.utf8.lexicographicallyPrecedes(rhs.title.utf8) ? -1 : 1
        }
    }

    /// The order over what it compares, for posts held in another form (``PostTable`` compares titles where they
    /// lie): one definition for both.
    ///
    /// - Parameters:
    ///   - ids: The two posts' ids.
    ///   - userIds: The two posts' users.
    ///   - compareTitles: The order of the two titles' UTF-8 bytes, as `memcmp` gives it: negative when the first
    ///     comes first, zero when they are equal, positive when the second does. Called only by the title orders.
    /// - Returns: Whether the first post comes before the second in this order.
    func areInIncreasingOrder(ids: (Int, Int), userIds: (Int, Int), compareTitles: () -> Int) -> Bool {
        switch self {
        case .idAscending:
            return ids.0 < ids.1
        case .idDescending:
            return ids.0 > ids.1
        case .title:
            let order = compareTitles()
            return order == 0 ? ids.0 < ids.1 : order < 0
        case .titleDescending:
            let order = compareTitles()
            return order == 0 ? ids.0 < ids.1 : order > 0
        case .user:
            return (userIds.0, ids.0) < (userIds.1, ids.1)
        case .userDescending:
            return userIds.0 == userIds.1 ? ids.0 < ids.1 : userIds.0 > userIds.1
        }
    }
}
