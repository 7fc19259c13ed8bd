/// How a ``SyncService`` brings a store up to date.
///
/// For example, a sync that also prunes — deletes the posts the source no longer has — checking first what it would
/// do:
///
/// ```swift
/// let preview = try await service.sync(SyncOptions(prune: true, dryRun: true))
/// ```
public struct SyncOptions: Sendable, Hashable {
    /// The default deletion limit: a prune may delete at most half of the stored posts.
    public static let defaultDeletionLimit = DeletionLimit.share(0.5)

    /// Whether to prune: delete the stored posts that the source no longer has.
    public var prune: Bool

    /// The most a prune may delete, as a share of the stored posts; a larger prune fails with
    /// ``PostStoreError/Code/tooManyDeletions`` and writes nothing, because an empty or truncated answer from the
    /// source must never wipe a store. ``DeletionLimit/unlimited`` lifts the limit, for when the source really did
    /// lose that many posts (what `poststore sync --prune --force` does).
    public var deletionLimit: DeletionLimit

    /// Whether to work out the report without writing anything (not even the sync state).
    public var dryRun: Bool

    /// Whether to send the `ETag` remembered from the last sync, so an unchanged source answers
    /// `304 Not Modified` and nothing is downloaded. Turn off to download everything, for example after changing
    /// the store by other means.
    public var usesETag: Bool
    /// Whether to ask a source with a changes feed (``PostChangesSource``) only for what changed since the last
    /// sync, when the store holds its checkpoint. Turn off for a whole sync (`poststore sync --full`), which still
    /// records the checkpoint of what it fetched.
    public var usesChangeToken = true
    /// How many changes one answer of a changes feed may hold (more when one write of the source holds more); each
    /// answer is one write.
    public var changesLimit = PostChanges.defaultLimit
    /// Whether a source that answers without a changes feed is refused before anything is written: what a
    /// follower's syncs ask (``SyncService/follow(_:wait:progress:)``, `poststore sync --follow`).
    package var requiresChangesFeed = false

    /// Creates options.
    ///
    /// - Parameters:
    ///   - prune: Whether to delete the stored posts the source no longer has.
    ///   - deletionLimit: The most a prune may delete, as a share of the stored posts.
    ///   - dryRun: Whether to write nothing.
    ///   - usesETag: Whether to send the remembered `ETag`.
    public init(
        prune: Bool = false,
        deletionLimit: DeletionLimit = defaultDeletionLimit,
        dryRun: Bool = false,
        usesETag: Bool = true
    ) {
        self.prune = prune
        self.deletionLimit = deletionLimit
        self.dryRun = dryRun
        self.usesETag = usesETag
    }
}
