public import Foundation

/// What a store remembers about its last successful sync from one source.
///
/// Stores keep one state per ``source`` (saving a state for a source replaces the earlier one) and persist it
/// alongside the posts, so every engine round-trips it exactly. ``syncedAt`` is kept to the millisecond. A sync
/// that commits after another never records an earlier time (its time is taken before it waits for the store's
/// lock, so the store moves it just past the latest one), so the newest state is the last sync committed.
public struct SyncState: Codable, Sendable, Hashable {
    /// The source the posts came from, for example a URL or a file path.
    public var source: String

    /// The source's `ETag` for what was synced, sent back as `If-None-Match` next time; `nil` if it sent none, or
    /// if a later write changed posts (stores clear it then, so a `304` never hides that change).
    public var etag: String?

    /// When the sync finished, rounded to the millisecond.
    public var syncedAt: Date {
        get { Date(timeIntervalSince1970: Double(syncedAtMilliseconds) / 1000) }
        set { syncedAtMilliseconds = Self.milliseconds(since1970: newValue) }
    }

    /// ``syncedAt`` as whole milliseconds since 1970-01-01T00:00:00Z, the form every engine stores.
    public var syncedAtMilliseconds: Int64

    /// How many posts the source sent.
    public var fetched: Int
    /// How many posts the sync inserted.
    public var inserted: Int
    /// How many posts the sync changed.
    public var updated: Int
    /// How many posts were already up to date.
    public var unchanged: Int
    /// How many posts the sync deleted.
    public var deleted: Int

    /// Where the synced posts stand in the source's changes feed: the token of the state they are, from which the
    /// next sync asks only for the changes; `nil` for a source without a feed, or once a later write changed posts
    /// (stores clear it then, as the ``etag``, so that a sync by changes never skips what that write did).
    public var changeToken: ChangeToken?

    /// Creates a sync state.
    ///
    /// - Parameters:
    ///   - source: The source the posts came from.
    ///   - etag: The source's `ETag`, if it sent one.
    ///   - syncedAt: When the sync finished; kept to the millisecond.
    ///   - fetched: How many posts the source sent.
    ///   - inserted: How many posts were inserted.
    ///   - updated: How many posts were changed.
    ///   - unchanged: How many posts were already up to date.
    ///   - deleted: How many posts were deleted.
    public init(
        source: String,
        etag: String? = nil,
        syncedAt: Date,
        fetched: Int = 0,
        inserted: Int = 0,
        updated: Int = 0,
        unchanged: Int = 0,
        deleted: Int = 0
    ) {
        self.source = source
        self.etag = etag
        self.syncedAtMilliseconds = Self.milliseconds(since1970: syncedAt)
        self.fetched = fetched
        self.inserted = inserted
        self.updated = updated
        self.unchanged = unchanged
        self.deleted = deleted
    }

    /// Whole milliseconds, clamped to what an `Int64` holds (about 292 million years either way); a NaN date
    /// counts as 1970.
    private static func milliseconds(since1970 date: Date) -> Int64 {
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
        guard !milliseconds.isNaN else { return 0 }
        return milliseconds >= 0x1p63 ? .max : milliseconds < -0x1p63 ? .min : Int64(milliseconds)
    }
}

extension SyncState {
    /// Two sync states are equal when every field is equal, the source and the `ETag` byte for byte.
    ///
    /// Swift's `String ==` treats canonically equivalent strings as equal (`"é"` precomposed equals `"e\u{301}"`);
    /// a store must not: a source is a name the store keeps exactly (SQLite compares bytes), and an `ETag` is an
    /// opaque value a server compares byte for byte, so a state whose `ETag` changed only in normalization is a new
    /// state that every engine saves. (See ``Post/==(_:_:)`` for posts.)
    public static func == (lhs: SyncState, rhs: SyncState) -> Bool {
        lhs.source.utf8.elementsEqual(rhs.source.utf8)
            && lhs.etag.map { Array($0.utf8) } == rhs.etag.map { Array($0.utf8) }
            && lhs.syncedAtMilliseconds == rhs.syncedAtMilliseconds && lhs.fetched == rhs.fetched
            && lhs.inserted == rhs.inserted && lhs.updated == rhs.updated && lhs.unchanged == rhs.unchanged
            && lhs.deleted == rhs.deleted && lhs.changeToken == rhs.changeToken
    }

    /// Hashes the fields, the source and the `ETag` byte for byte, consistently with ``==(_:_:)``.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(Array(source.utf8))
        hasher.combine(etag.map { Array($0.utf8) })
        hasher.combine(syncedAtMilliseconds)
        hasher.combine(fetched)
        hasher.combine(inserted)
        hasher.combine(updated)
        hasher.combine(unchanged)
        hasher.combine(deleted)
        hasher.combine(changeToken)
    }
}
