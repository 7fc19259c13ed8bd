/// Everything a store holds, as plain values: the posts, the sync states and the change history.
///
/// The in-memory and JSON-file engines keep their data in this form and share its write and read logic, so they
/// cannot drift apart; the SQLite engine implements the same contract in SQL and the differential tests hold it to
/// this one.
package struct StoreContents: Sendable, Equatable {
    /// The posts, keyed by id.
    package var posts: [Int: Post] = [:]

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

    /// Applies a change set, counting what it did; on a thrown error nothing has changed.
    package mutating func apply(_ changes: PostChangeSet) throws -> WriteSummary {
        try changes.validate()
        try changes.checkRequiredChangeToken(
            stored: changes.syncState.flatMap { syncState(for: $0.source)?.changeToken }
        )
        try changes.checkRequiredPosts { posts[$0] }
        let deleted = try changes.deletedIds(
            storedCount: posts.count,
            storedIds: { Array(posts.keys) },
            isStored: { posts[$0] != nil }
        )
        var summary = WriteSummary()
        var written: [Int] = []
        for post in changes.upserts {
            switch posts[post.id] {
            case nil:
                summary.inserted += 1
                posts[post.id] = post
                written.append(post.id)
            case let existing? where existing == post:
                summary.unchanged += 1
            case _?:
                summary.updated += 1
                posts[post.id] = post
                written.append(post.id)
            }
        }
        for id in deleted {
            posts[id] = nil
        }
        summary.deleted = deleted.count
        history.record(written: written, deleted: deleted)
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
        posts = [:]
        syncStates = [:]
    }

    /// The changes since `token`; see ``PostStoreProtocol/changes(since:limit:)``.
    package func changes(since token: ChangeToken?, limit: Int) throws(PostStoreError) -> PostChanges {
        try history.changes(since: token, limit: limit, posts: posts)
    }

    /// Answers a query; see ``PostQuery``.
    package func query(_ query: PostQuery) throws(PostStoreError) -> [Post] {
        try query.evaluate(over: posts)
    }

    /// A digest of the posts, the same for the same posts in any process: the identity of a store that keeps no
    /// history of its writes (a JSON file of version 1, or edited by hand), and the check that a JSON file's
    /// history still describes its posts.
    package var postsDigest: String {
        var hasher = StableHasher()
        for id in posts.keys.sorted() {
            let post = posts[id]!
            hasher.combine(post.id)
            hasher.combine(post.userId)
            hasher.combine(post.title)
            hasher.combine(post.body)
        }
        return "c" + hasher.hexadecimal
    }

    /// Every sync state, the most recent first.
    package var orderedSyncStates: [SyncState] {
        Array(syncStates.values).sortedMostRecentFirst()
    }
}
