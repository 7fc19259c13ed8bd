/// Observation: a query, a post or the sync states kept current as the store changes (see <doc:ObservingAStore>).
extension PostStoreProtocol {
    /// Observes a query: its result now, then again after each committed write that changes it, by any process or
    /// machine.
    ///
    /// A write is skipped without running the query again when the changes feed shows that it cannot have changed
    /// the result: for a query with a filter or a search and no offset, a write whose posts the query does not
    /// select and does not hold, and whose deletions it does not hold.
    ///
    /// For example:
    ///
    /// ```swift
    /// for try await posts in store.observe(PostQuery(userIds: [1], limit: 20)) {
    ///     print(posts.map(\.title))
    /// }
    /// ```
    ///
    /// - Parameter query: The query.
    /// - Returns: The results, as a ``PostObservation``; it throws ``PostStoreError`` (`invalidQuery` for a negative
    ///   limit or offset, then the store's own errors).
    public func observe(_ query: PostQuery) -> PostObservation<[Post]> {
        PostObservation(
            store: self,
            concern: .posts,
            isUnchanged: query.unchangedByWrites,
            read: { try await self.query(query) }
        )
    }

    /// Observes one post: it now (or `nil`), then again after each committed write that changes it, deletes it or
    /// creates it. Writes to other posts are skipped from the changes feed, without reading the post again.
    ///
    /// - Parameter id: The post's id.
    /// - Returns: The post as it changes, as a ``PostObservation``; it throws the store's ``PostStoreError``.
    public func observePost(id: Int) -> PostObservation<Post?> {
        PostObservation(
            store: self,
            concern: .posts,
            isUnchanged: { changes, _ in
                !changes.deletedIds.contains(id) && !changes.posts.contains { $0.id == id }
            },
            read: { try await self.post(id: id) }
        )
    }

    /// Observes the sync states: every state now, then again after each commit that changes one (a sync that
    /// saves its time, or a write that clears the `ETag`s), so that a "last synced" label stays current.
    ///
    /// - Returns: The states, the most recent first, as a ``PostObservation``; it throws the store's
    ///   ``PostStoreError``.
    public func observeSyncStates() -> PostObservation<[SyncState]> {
        PostObservation(store: self, concern: .anyCommit, read: { try await self.syncStates() })
    }
}

extension PostQuery {
    /// Whether a caught-up page of changes cannot have changed the query's last result, for a query with a
    /// filter or a search and no offset: no post written is held or selected, no deleted id is held. A post the
    /// query does not select in its new version and did not hold could only have sat past the window before (no
    /// offset puts one before it), and the window's posts are unchanged. `nil` for other queries.
    package var unchangedByWrites: (@Sendable (PostChanges, [Post]) -> Bool)? {
        guard offset == 0, ids != nil || userIds != nil || !search.isEmpty else { return nil }
        let search = TextSearch(self.search)
        return { [self] changes, posts in
            let held = Set(posts.map(\.id))
            return changes.deletedIds.allSatisfy { !held.contains($0) }
                && changes.posts.allSatisfy { !held.contains($0.id) && !admits($0, search: search) }
        }
    }
}
