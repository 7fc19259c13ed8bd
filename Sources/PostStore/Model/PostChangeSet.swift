/// Writes that a store applies in one atomic step: all of them, or none.
///
/// A change set may not name one id twice, whether twice among ``upserts`` or once among ``upserts`` and once
/// among ``deletions``; a store refuses such a set with ``PostStoreError/Code/constraintViolation``.
///
/// For example, the writes of one sync:
///
/// ```swift
/// let summary = try await store.apply(
///     PostChangeSet(upserts: posts, deletions: [7, 9], syncState: SyncState(source: "posts.json", syncedAt: .now))
/// )
/// ```
public struct PostChangeSet: Sendable, Hashable {
    /// Posts to insert, or to replace when a post with the same id exists and differs.
    public var upserts: [Post]

    /// Ids of posts to delete; ids the store does not hold are skipped.
    public var deletions: Set<Int>

    /// Whether to prune: delete every stored post whose id is not among ``upserts`` as well, so the store then
    /// holds exactly the upserted posts. The store decides which posts those are under its write lock.
    public var prune: Bool

    /// The most this change set may delete, counting ``deletions`` and pruned posts; by default no limit.
    public var deletionLimit: DeletionLimit

    /// Sync state to save with the posts, replacing any earlier state of the same source.
    public var syncState: SyncState?

    /// How the store saves ``syncState``: as given, with this change set's counts, or confirming its `ETag`.
    public var syncStateRecording: SyncStateRecording

    /// The change token that the saved sync state of ``syncState``'s source must still hold for the change set to
    /// be written, checked under the store's write lock before anything is: a sync by changes applies what
    /// changed since that token, which on top of any other state would mix two states. `nil` (the default) checks
    /// nothing. When the saved state holds another token, or none, the store throws
    /// ``PostStoreError/Code/checkpointMoved`` and writes nothing.
    public var requiredChangeToken: ChangeToken?

    /// The posts the store must hold as given for the change set to be written, checked under the store's write
    /// lock before anything is: an edit made from a post read earlier (a server's `If-Match`) must not overwrite a
    /// change another process made since. Empty (the default) checks nothing. When a stored post differs from its
    /// requirement, the store throws ``PostStoreError/Code/postChanged`` and writes nothing.
    public var requiredPosts: [RequiredPost] = []

    /// Creates a change set.
    ///
    /// - Parameters:
    ///   - upserts: Posts to insert or replace.
    ///   - deletions: Ids of posts to delete.
    ///   - prune: Whether to delete every stored post not among `upserts` as well.
    ///   - deletionLimit: The most the change set may delete.
    ///   - syncState: Sync state to save with the posts.
    ///   - syncStateRecording: How the store saves `syncState`.
    public init(
        upserts: [Post] = [],
        deletions: Set<Int> = [],
        prune: Bool = false,
        deletionLimit: DeletionLimit = .unlimited,
        syncState: SyncState? = nil,
        syncStateRecording: SyncStateRecording = .asGiven
    ) {
        self.upserts = upserts
        self.deletions = deletions
        self.prune = prune
        self.deletionLimit = deletionLimit
        self.syncState = syncState
        self.syncStateRecording = syncStateRecording
    }

    /// The sync state to save after a write that did what `summary` counts, as ``syncStateRecording`` says: what
    /// every engine (one written outside this package too) saves, in the same atomic step as the posts.
    ///
    /// - Parameters:
    ///   - summary: What the change set did.
    ///   - storedETag: Reads the `ETag` the store holds for the state's source now (after this write cleared the
    ///     `ETag`s, if it changed posts); called only for ``SyncStateRecording/confirmingETag``.
    ///   - latestSyncedAt: The latest ``SyncState/syncedAtMilliseconds`` the store holds for any source but the one
    ///     named, read under the write's lock. A sync's time is taken before it waits for the lock, so a sync that
    ///     commits after another may hold an earlier one, or the same millisecond; its time is then moved just past
    ///     the latest, so the newest state is always the last one committed (equal times would fall back to
    ///     ordering by source name). A state given ``SyncStateRecording/asGiven`` keeps its time.
    /// - Returns: The state to save, or `nil` when the change set has none.
    public func syncState(
        after summary: WriteSummary,
        storedETag: (String) throws -> String?,
        latestSyncedAt: (String) throws -> Int64?
    ) rethrows -> SyncState? {
        guard var state = syncState else { return nil }
        if syncStateRecording != .asGiven, let latest = try latestSyncedAt(state.source),
            state.syncedAtMilliseconds <= latest
        {
            state.syncedAtMilliseconds = latest + 1
        }
        switch syncStateRecording {
        case .asGiven:
            break
        case .recordingSummary:
            state.fetched = summary.inserted + summary.updated + summary.unchanged
            state.inserted = summary.inserted
            state.updated = summary.updated
            state.unchanged = summary.unchanged
            state.deleted = summary.deleted
        case .confirmingETag:
            if let etag = state.etag, try storedETag(state.source).map({ Array($0.utf8) }) != Array(etag.utf8) {
                state.etag = nil
                state.changeToken = nil
            }
        }
        return state
    }

    /// The change set with a stream's posts read and appended to its upserts, read on ``BlockingWorkExecutor``: a
    /// stream over a file reads it, which must not hold a thread of Swift's cooperative pool.
    func appendingUpserts(from stream: PostStream) async throws -> PostChangeSet {
        try await withTaskExecutorPreference(BlockingWorkExecutor.shared) { [self] in
            var changes = self
            var reader = try stream.makeReader()
            changes.upserts += try reader.readAll()
            return changes
        }
    }

    /// Whether the change set writes nothing at all.
    public var isEmpty: Bool { upserts.isEmpty && deletions.isEmpty && !prune && syncState == nil }

    /// The ids this change set deletes from a store, checked against ``deletionLimit``: what every engine runs
    /// before it writes anything.
    ///
    /// - Parameters:
    ///   - storedCount: How many posts the store holds before the change set.
    ///   - storedIds: Every id the store holds; called only with ``prune``.
    ///   - isStored: Whether the store holds a post with this id.
    ///   - isUpserted: Whether an id is upserted, when the upserts are more than ``upserts`` (a streamed write); by
    ///     default whether it is among ``upserts``.
    /// - Returns: The stored ids among ``deletions`` and, with ``prune``, those not upserted; sorted.
    /// - Throws: ``PostStoreError/Code/tooManyDeletions`` when they are more than the limit allows, or what the
    ///   closures throw.
    public func deletedIds(
        storedCount: Int,
        storedIds: () throws -> [Int],
        isStored: (Int) throws -> Bool,
        isUpserted: ((Int) -> Bool)? = nil
    ) throws -> [Int] {
        var deleted = try Array(deletions.filter(isStored))
        if prune {
            let isKept = isUpserted ?? Set(upserts.lazy.map(\.id)).contains
            deleted += try storedIds().filter { !isKept($0) && !deletions.contains($0) }
        }
        try deletionLimit.check(deletions: deleted.count, outOf: storedCount)
        deleted.sort()
        return deleted
    }

    /// Refuses the change set when the saved sync state of its source no longer holds ``requiredChangeToken``.
    ///
    /// - Parameter stored: The change token of the saved state of ``syncState``'s source, read under the write
    ///   lock.
    /// - Throws: ``PostStoreError/Code/checkpointMoved``.
    public func checkRequiredChangeToken(stored: ChangeToken?) throws(PostStoreError) {
        guard let required = requiredChangeToken, stored != required else { return }
        throw PostStoreError(
            .checkpointMoved,
            "The sync of \(syncState?.source ?? "its source") stood at \(required), but the store's checkpoint for it "
                + "is now \(stored?.description ?? "gone") (another sync, or a write that changed posts); nothing was "
                + "written."
        )
    }

    /// Refuses the change set when a post the store holds is not as ``requiredPosts`` requires.
    ///
    /// - Parameter stored: Reads the post the store holds for an id (`nil`: none), under the write lock.
    /// - Throws: ``PostStoreError/Code/postChanged`` naming the post; what `stored` throws.
    public func checkRequiredPosts(stored: (Int) throws -> Post?) throws {
        for required in requiredPosts {
            let post = try stored(required.id)
            guard post != required.post else { continue }
            throw PostStoreError(
                .postChanged,
                post == nil
                    ? "Post \(required.id) was deleted since it was read; nothing was written."
                    : required.post == nil
                        ? "Post \(required.id) was written since it was found missing; nothing was written."
                        : "Post \(required.id) changed since it was read (another writer came first); nothing was "
                            + "written."
            )
        }
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
                    "Two posts in one batch have the same id \(post.id) (the second at index \(position))."
                )
            }
            if deletions.contains(post.id) {
                throw PostStoreError(
                    .constraintViolation,
                    "Post \(post.id) is both upserted (at index \(position)) and deleted in one batch."
                )
            }
        }
    }
}
