/// How a ``SyncService`` brings a store up to date.
///
/// For example, a sync that also deletes posts the source no longer has, checking first what it would do:
///
/// ```swift
/// let preview = try await service.sync(SyncOptions(prune: true, dryRun: true))
/// ```
public struct SyncOptions: Sendable, Hashable {
    /// The default prune guard: a prune may delete at most half of the stored posts.
    public static let defaultPruneLimit = DeletionLimit.share(0.5)

    /// Whether to delete stored posts that the source no longer has.
    public var prune: Bool

    /// The most a prune may delete, as a share of the stored posts; a larger prune fails with
    /// ``PostStoreError/Code/tooManyDeletions`` and writes nothing, because an empty or truncated answer from the
    /// source must never wipe a store. See ``force``.
    public var pruneLimit: DeletionLimit

    /// Whether to prune past ``pruneLimit``, for when the source really did lose that many posts.
    public var force: Bool

    /// Whether to work out the report without writing anything (not even the sync state).
    public var dryRun: Bool

    /// Whether to send the `ETag` remembered from the last sync, so an unchanged source answers
    /// `304 Not Modified` and nothing is downloaded. Turn off to download everything, for example after changing
    /// the store by other means.
    public var usesETag: Bool

    /// Creates options.
    ///
    /// - Parameters:
    ///   - prune: Whether to delete stored posts the source no longer has.
    ///   - pruneLimit: The most a prune may delete, as a share of the stored posts.
    ///   - force: Whether to prune past the limit.
    ///   - dryRun: Whether to write nothing.
    ///   - usesETag: Whether to send the remembered `ETag`.
    public init(
        prune: Bool = false,
        pruneLimit: DeletionLimit = defaultPruneLimit,
        force: Bool = false,
        dryRun: Bool = false,
        usesETag: Bool = true
    ) {
        self.prune = prune
        self.pruneLimit = pruneLimit
        self.force = force
        self.dryRun = dryRun
        self.usesETag = usesETag
    }
}
