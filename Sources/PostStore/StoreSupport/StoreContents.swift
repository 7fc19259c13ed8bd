/// Everything a store holds, as plain values: the posts, the sync states and the change history.
///
/// The in-memory and JSON-file engines keep their data in this form and share its write and read logic, so they
/// cannot drift apart; the SQLite engine implements the same contract in SQL and the differential tests hold it to
/// this one.
package struct StoreContents: Sendable, Equatable {
    /// The posts, and the index that answers queries over them.
    package var posts = PostTable()

    /// The sync states, keyed by source.
    package var syncStates: [SourceKey: SyncState] = [:]

    /// The changes feed's bookkeeping: every write that changes posts is recorded in it.
    package var history = ChangeHistory()

    /// Nothing: an empty store.
    package init() {}

    /// A source compared byte for byte, as SQLite compares it: `String`'s `==` would merge `"café"` written
    /// precomposed and decomposed, which are two sources to a store.
    package typealias SourceKey = ByteExactString

    /// The sync state saved for `source`, if any.
    package func syncState(for source: String) -> SyncState? {
        syncStates[SourceKey(source)]
    }

    /// What a change set would do to these contents, worked out without changing them.
    private struct WritePlan {
        /// The counts.
        var summary = WriteSummary()
        /// The upserts that insert or update a post, in their order.
        var written: [Post] = []
        /// The ids the change set deletes, ascending.
        var deleted: [Int] = []
    }

    /// Checks a change set and works out what applying it would do; throws what ``apply(_:)`` throws.
    private func plan(_ changes: PostChangeSet) throws -> WritePlan {
        try changes.validate()
        try changes.checkRequiredChangeToken(
            stored: changes.syncState.flatMap { syncState(for: $0.source)?.changeToken }
        )
        try changes.checkRequiredPosts { posts[$0] }
        var plan = WritePlan()
        plan.deleted = try changes.deletedIds(
            storedCount: posts.count,
            storedIds: { posts.ids },
            isStored: posts.contains
        )
        for post in changes.upserts {
            if !posts.contains(post.id) {
                plan.summary.inserted += 1
                plan.written.append(post)
            } else if posts.holds(post) {
                plan.summary.unchanged += 1
            } else {
                plan.summary.updated += 1
                plan.written.append(post)
            }
        }
        plan.summary.deleted = plan.deleted.count
        return plan
    }

    /// What applying a change set would count, without applying it: nothing changes, the index included.
    package func preview(_ changes: PostChangeSet) throws -> WriteSummary {
        try plan(changes).summary
    }

    /// Applies a change set, counting what it did; on a thrown error nothing has changed.
    package mutating func apply(_ changes: PostChangeSet) throws -> WriteSummary {
        let plan = try plan(changes)
        let summary = plan.summary
        posts.reserveCapacity(adding: plan.written)
        for post in plan.written {
            posts.upsert(post)
        }
        for id in plan.deleted {
            posts.remove(id)
        }
        posts.compactIfWasteful()
        history.record(written: plan.written.map(\.id), deleted: plan.deleted)
        if summary.changedAnything {
            for key in Array(syncStates.keys) {
                syncStates[key]?.etag = nil
                syncStates[key]?.changeToken = nil
            }
        }
        let state = changes.syncState(
            after: summary,
            storedETag: { syncState(for: $0)?.etag },
            latestSyncedAt: { source in
                syncStates.filter { $0.key != SourceKey(source) }.values.map(\.syncedAtMilliseconds).max()
            }
        )
        if let state {
            syncStates[SourceKey(state.source)] = state
        }
        return summary
    }

    /// Deletes every post and sync state; the history records it, so every earlier token must refetch.
    package mutating func removeAll() {
        history.recordRemovingAll(changedPosts: !posts.isEmpty)
        posts.removeAll()
        syncStates = [:]
    }

    /// The changes since `token`; see ``PostStoreProtocol/changes(since:limit:)``.
    package func changes(since token: ChangeToken?, limit: Int) throws(PostStoreError) -> PostChanges {
        try history.changes(since: token, limit: limit, posts: posts)
    }

    /// Answers a query through the posts' index (see ``PostTable/answer(_:)``), as ``PostQuery`` defines it; the
    /// index catches up with the writes since the last query, so the contents change, their posts do not.
    package mutating func query(_ query: PostQuery) throws(PostStoreError) -> [Post] {
        try posts.answer(query).posts
    }

    /// A query's page (``PostPageReading/page(_:)``), its total and the revision of these contents.
    package mutating func page(_ query: PostQuery) throws(PostStoreError) -> PostPage {
        let (matches, total) = try posts.answer(query)
        return PostPage(posts: matches, total: total, revision: history.token.description)
    }

    /// A digest of the posts, the same for the same posts in any process: the identity of a store that keeps no
    /// history of its writes (a JSON file of version 1, or edited by hand), and the check that a JSON file's
    /// history still describes its posts.
    package var postsDigest: String {
        var hasher = StableHasher()
        posts.forEachInIdOrder { post in
            hasher.combine(post.id)
            hasher.combine(post.userId)
            hasher.combine(utf8: post.title)
            hasher.combine(utf8: post.body)
        }
        return "c" + hasher.hexadecimal
    }

    /// Every sync state, the most recent first.
    package var orderedSyncStates: [SyncState] {
        Array(syncStates.values).sortedMostRecentFirst()
    }
}
