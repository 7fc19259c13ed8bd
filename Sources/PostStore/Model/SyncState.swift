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
