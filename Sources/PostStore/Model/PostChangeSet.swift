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

    /// Sync state to save with the posts, replacing any earlier state of the same source.
    public var syncState: SyncState?

    /// Creates a change set.
    ///
    /// - Parameters:
    ///   - upserts: Posts to insert or replace.
    ///   - deletions: Ids of posts to delete.
    ///   - syncState: Sync state to save with the posts.
    public init(upserts: [Post] = [], deletions: Set<Int> = [], syncState: SyncState? = nil) {
        self.upserts = upserts
        self.deletions = deletions
        self.syncState = syncState
    }

    /// Whether the change set writes nothing at all.
    public var isEmpty: Bool { upserts.isEmpty && deletions.isEmpty && syncState == nil }

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
