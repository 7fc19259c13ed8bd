/// How a store saves the ``PostChangeSet/syncState`` of a change set.
///
/// A sync records itself in the same atomic step as its posts. What it can know only under the store's write lock
/// — what its upserts really did, and whether the store still holds the posts an `ETag` stands for — the store
/// fills in.
public enum SyncStateRecording: Sendable, Hashable {
    /// Saved exactly as given.
    case asGiven

    /// Saved with `fetched` (the posts upserted), `inserted`, `updated`, `unchanged` and `deleted` set to what the
    /// change set did: the record of a sync that fetched posts.
    case recordingSummary

    /// Saved with its ``SyncState/etag`` and ``SyncState/changeToken`` only if the store still holds that `ETag`
    /// for the source, and both `nil` otherwise: the record of a sync the source answered with `304 Not Modified`.
    /// Any write that changed posts since the `ETag` was saved has cleared both, and a 304 then no longer vouches
    /// for the store's posts.
    case confirmingETag
}
