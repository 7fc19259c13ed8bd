package import PostStore

/// The change log of a store that keeps it in tables (SQLite, PostgreSQL) as it stands when a read or a write
/// begins, and the log's algorithm apart from the engine's statements: which answer of the feed to give, where it
/// ends, and what a write records.
///
/// The tables are each post's `revision`, the tombstones of deleted ids, the overwritten range of each write (see
/// `ChangePageEnd`), and the store's identity, revision, floor and limit, which an engine reads into this value in
/// one statement. An engine reads what a step asks for with its own SQL, synchronously (SQLite) or not
/// (PostgreSQL), and hands it back:
///
/// ```swift
/// let log = try storedChangeLog()
/// guard let since = try log.start(since: token) else { return log.wholeCopy(try allPosts()) }
/// var end = log.firstEnd(since: since, limit: limit, upcoming: try revisionsOfChanges(since: since, first: limit + 1))
/// while let later = try latestOverwrite(since: since, end: end), later > end { end = later }
/// return log.answer(posts: try postsWritten(after: since, through: end), deletedIds: try idsDeleted(...), end: end)
/// ```
///
/// The in-memory engine keeps the same log in memory (the core's `ChangeHistory`), with the same rules.
package struct TableChangeLog: Sendable, Equatable {
    /// The store's identity, which its tokens carry.
    package let storeID: String
    /// The revision of the store's last write that changed posts.
    package let revision: Int
    /// The oldest revision the log answers from.
    package let floor: Int
    /// How many writes back the log reaches at least.
    package let limit: Int

    package init(storeID: String, revision: Int, floor: Int, limit: Int) {
        self.storeID = storeID
        self.revision = revision
        self.floor = floor
        self.limit = limit
    }

    /// The token of the store's state.
    package var token: ChangeToken { ChangeToken(storeID: storeID, revision: revision) }

    /// How far back the log reaches, and its limit.
    package var summary: ChangeHistorySummary {
        ChangeHistorySummary(oldest: ChangeToken(storeID: storeID, revision: floor), newest: token, limit: limit)
    }

    // MARK: - The feed

    /// The revision an answer since `token` begins after, or `nil` for a whole copy (no token).
    ///
    /// - Throws: `mustRefetch` for a token this log cannot answer, saying why.
    package func start(since token: ChangeToken?) throws(PostStoreError) -> Int? {
        guard let token else { return nil }
        try ChangeHistory.check(token, storeID: storeID, floor: floor, head: revision)
        return token.revision
    }

    /// The answer without a token: every post, and the token of this state.
    ///
    /// - Parameter posts: Every post, by id.
    package func wholeCopy(_ posts: [Post]) -> PostChanges {
        PostChanges(posts: posts, deletedIds: [], next: token, isCaughtUp: true)
    }

    /// Where an answer since `since` ends before later writes that overwrote its versions move it (the engine then
    /// moves it to each such write, as `ChangePageEnd` says).
    ///
    /// - Parameters:
    ///   - since: What ``start(since:)`` returned.
    ///   - limit: How many changes the answer holds at most, 1 or more.
    ///   - upcoming: The revisions of the first `limit + 1` changes after `since` (posts and tombstones, merged in
    ///     revision order), or all of them when there are fewer.
    package func firstEnd(since: Int, limit: Int, upcoming: [Int]) -> Int {
        ChangePageEnd.find(
            since: since,
            head: revision,
            limit: limit,
            revisionOfChange: { n in n <= upcoming.count ? upcoming[n - 1] : nil },
            latestOverwrite: { _, _ in nil }
        )
    }

    /// The answer that ends at `end`.
    ///
    /// - Parameters:
    ///   - posts: The posts whose revision lies in `(since, end]`, by id.
    ///   - deletedIds: The tombstones' ids in `(since, end]`, ascending.
    ///   - end: Where the answer ends.
    package func answer(posts: [Post], deletedIds: [Int], end: Int) -> PostChanges {
        PostChanges(
            posts: posts,
            deletedIds: deletedIds,
            next: ChangeToken(storeID: storeID, revision: end),
            isCaughtUp: end == revision
        )
    }

    // MARK: - Recording

    /// What a write that changed posts records, as the revision after this log's.
    package struct Record: Sendable, Equatable {
        /// The write's revision.
        package let revision: Int
        /// The range of the revisions it overwrote, which the engine inserts as the write's row; `nil` for none.
        package let overwritten: ClosedRange<Int>?
        /// The floor to move to (dropping tombstones and writes at or below it) when it is time to compact.
        package let newFloor: Int?
    }

    /// What a write that changed posts, overwriting `overwritten`, records.
    package func record(_ overwritten: OverwrittenRevisions) -> Record {
        Record(
            revision: revision + 1,
            overwritten: overwritten.range,
            newFloor: ChangeHistory.compactedFloor(revision: revision + 1, floor: floor, limit: limit)
        )
    }

    /// The floor to move to once the limit is `writes`, or `nil` when the log already fits.
    ///
    /// - Throws: `invalidArgument` for a limit below 1.
    package func floor(afterSettingLimit writes: Int) throws(PostStoreError) -> Int? {
        try ChangeHistory.validate(historyLimit: writes)
        return revision - floor > writes ? revision - writes : nil
    }
}
