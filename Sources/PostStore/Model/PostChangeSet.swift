/// Writes that a store applies in one atomic step: all of them, or none.
///
/// A change set may not name one id twice, whether twice among ``upserts`` or once among ``upserts`` and once
/// among ``deletions``; a store refuses such a set with ``PostStoreError/Code/constraintViolation``.
///
/// For example, the writes of one sync:
///
/// ```swift
/// let summary = try await store.apply(
///     PostChangeSet(upserts: fetched, deletions: [7, 9], syncState: SyncState(source: url, syncedAt: .now))
/// )
/// ```
public struct PostChangeSet: Sendable, Hashable {
    /// Posts to insert, or to replace when a post with the same id exists and differs.
    public var upserts: [Post]

    /// Ids of posts to delete; ids the store does not hold are skipped.
    public var deletions: Set<Int>

    /// Whether to delete every stored post whose id is not among ``upserts`` as well: the store then holds
    /// exactly the upserted posts (a sync's prune). The store decides which posts those are under its write lock.
    public var deletesAbsentPosts: Bool

    /// The most this change set may delete, counting ``deletions`` and absent posts; by default no limit.
    public var deletionLimit: DeletionLimit

    /// Sync state to save with the posts, replacing any earlier state of the same source.
    public var syncState: SyncState?

    /// Whether the store sets the saved ``syncState``'s `inserted`, `updated`, `unchanged` and `deleted` to what
    /// this change set did, counted under the write lock (a sync's record of itself); otherwise it is saved as given.
    public var recordsSummaryInSyncState: Bool

    /// Creates a change set.
    ///
    /// - Parameters:
    ///   - upserts: Posts to insert or replace.
    ///   - deletions: Ids of posts to delete.
    ///   - deletesAbsentPosts: Whether to delete every stored post not among `upserts` as well.
    ///   - deletionLimit: The most the change set may delete.
    ///   - syncState: Sync state to save with the posts.
    ///   - recordsSummaryInSyncState: Whether the saved sync state's counts are set to what the change set did.
    public init(
        upserts: [Post] = [],
        deletions: Set<Int> = [],
        deletesAbsentPosts: Bool = false,
        deletionLimit: DeletionLimit = .unlimited,
        syncState: SyncState? = nil,
        recordsSummaryInSyncState: Bool = false
    ) {
        self.upserts = upserts
        self.deletions = deletions
        self.deletesAbsentPosts = deletesAbsentPosts
        self.deletionLimit = deletionLimit
        self.syncState = syncState
        self.recordsSummaryInSyncState = recordsSummaryInSyncState
    }

    /// The sync state to save after a write that did what `summary` counts.
    ///
    /// - Parameter summary: What the change set did.
    /// - Returns: ``syncState``, with its counts set from `summary` when ``recordsSummaryInSyncState`` says so.
    func syncState(after summary: WriteSummary) -> SyncState? {
        guard var state = syncState, recordsSummaryInSyncState else { return syncState }
        state.inserted = summary.inserted
        state.updated = summary.updated
        state.unchanged = summary.unchanged
        state.deleted = summary.deleted
        return state
    }

    /// Whether the change set writes nothing at all.
    public var isEmpty: Bool { upserts.isEmpty && deletions.isEmpty && !deletesAbsentPosts && syncState == nil }

    /// The ids this change set deletes from a store, checked against ``deletionLimit``: what every engine runs
    /// before it writes anything.
    ///
    /// - Parameters:
    ///   - storedCount: How many posts the store holds before the change set.
    ///   - storedIds: Every id the store holds; called only with ``deletesAbsentPosts``.
    ///   - isStored: Whether the store holds a post with this id.
    /// - Returns: The stored ids among ``deletions`` and, with ``deletesAbsentPosts``, those not upserted; sorted.
    /// - Throws: ``PostStoreError/Code/tooManyDeletions`` when they are more than the limit allows, or what the
    ///   closures throw.
    func deletedIds(
        storedCount: Int,
        storedIds: () throws -> [Int],
        isStored: (Int) throws -> Bool
    ) throws -> [Int] {
        var deleted = try Array(deletions.filter(isStored))
        if deletesAbsentPosts {
            let kept = Set(upserts.lazy.map(\.id))
            deleted += try storedIds().filter { !kept.contains($0) && !deletions.contains($0) }
        }
        try deletionLimit.check(deletions: deleted.count, outOf: storedCount)
        deleted.sort()
        return deleted
    }

    /// Checks the rule every engine enforces before it writes anything.
    ///
    /// - Throws: ``PostStoreError/Code/constraintViolation`` naming the first id that appears twice among the
    ///   upserts, or that is both upserted and deleted.
    public func validate() throws(PostStoreError) {
        var seen = Set<Int>(minimumCapacity: upserts.count)
        for (position, post) in upserts.enumerated() {
            if !seen.insert(post.id).inserted {
                throw PostStoreError(
                    .constraintViolation,
                    "Two posts in one batch have the same id \(post.id) (the second at position \(position))."
                )
            }
            if deletions.contains(post.id) {
                throw PostStoreError(
                    .constraintViolation,
                    "Post \(post.id) is both upserted (position \(position)) and deleted in one batch."
                )
            }
        }
    }
}
