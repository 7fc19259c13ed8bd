public import PostStore
import PostStoreEngines
import PostgresNIO

/// The changes feed (migration 0005): each post's `revision`, `post_tombstones`, `post_writes`, and in the
/// `store_revision` row the store's `store_id`, `revision`, `change_floor` and `change_history_limit`.
extension PostgresPostStore: ChangeHistoryKeeping {
    public func changeHistory() async throws -> ChangeHistorySummary {
        try await read { session in try await storedChangeLog(in: session).summary }
    }

    public func setChangeHistoryLimit(_ writes: Int) async throws {
        try ChangeHistory.validate(historyLimit: writes)
        try await write { session in
            try await session.execute("UPDATE \(unescaped: names.storeRevision) SET change_history_limit = \(writes)")
            if let floor = try await storedChangeLog(in: session).floor(afterSettingLimit: writes) {
                try await moveChangeFloor(to: floor, in: session)
            }
        }
    }

    public func changeToken() async throws -> ChangeToken {
        try await read { session in try await storedChangeLog(in: session).token }
    }

    public func changes(since token: ChangeToken?, limit: Int) async throws -> PostChanges {
        try ChangeHistory.validate(limit: limit)
        return try await read { session in
            try await session.snapshot { session in
                let log = try await storedChangeLog(in: session)
                guard let since = try log.start(since: token) else {
                    return log.wholeCopy(
                        try await posts(
                            "SELECT id, user_id, title, body FROM \(unescaped: names.posts) ORDER BY id",
                            in: session
                        )
                    )
                }
                let upcoming = try await session.rows(
                    """
                    (SELECT revision FROM \(unescaped: names.posts) WHERE revision > \(since)
                        ORDER BY revision LIMIT \(limit + 1))
                    UNION ALL
                    (SELECT revision FROM \(unescaped: names.tombstones) WHERE revision > \(since)
                        ORDER BY revision LIMIT \(limit + 1))
                    ORDER BY 1 LIMIT \(limit + 1)
                    """,
                    as: Int.self
                )
                var end = log.firstEnd(since: since, limit: limit, upcoming: upcoming)
                while let later = try await latestOverwrite(since: since, end: end, in: session), later > end {
                    end = later
                }
                return log.answer(
                    posts: try await posts(
                        """
                        SELECT id, user_id, title, body FROM \(unescaped: names.posts)
                        WHERE revision > \(since) AND revision <= \(end) ORDER BY id
                        """,
                        in: session
                    ),
                    deletedIds: try await session.rows(
                        """
                        SELECT id FROM \(unescaped: names.tombstones)
                        WHERE revision > \(since) AND revision <= \(end) ORDER BY id
                        """,
                        as: Int.self
                    ),
                    end: end
                )
            }
        }
    }

    /// The store's identity, revision, history floor and limit.
    func storedChangeLog(in session: PostgresSession) async throws -> TableChangeLog {
        let (storeID, revision, floor, limit) = try await session.rows(
            """
            SELECT store_id, revision, change_floor, change_history_limit FROM \(unescaped: names.storeRevision)
            """,
            as: (String, Int, Int, Int).self
        )[0]
        return TableChangeLog(storeID: storeID, revision: revision, floor: floor, limit: limit)
    }

    /// Records a write that changed posts as the revision after `log`'s (read when the write began).
    func recordChanges(
        after log: TableChangeLog,
        overwritten: OverwrittenRevisions,
        in session: PostgresSession
    ) async throws {
        let record = log.record(overwritten)
        try await countRevision(in: session)
        if let range = record.overwritten {
            try await session.execute(
                """
                INSERT INTO \(unescaped: names.writes) (revision, overwrote_first, overwrote_last)
                VALUES (\(record.revision), \(range.lowerBound), \(range.upperBound))
                """
            )
        }
        if let floor = record.newFloor { try await moveChangeFloor(to: floor, in: session) }
    }

    /// Begins the history at the store's revision: every earlier token must refetch (the store was emptied).
    func startChangeHistoryAtTheRevision(in session: PostgresSession) async throws {
        try await moveChangeFloor(to: try await storedChangeLog(in: session).revision, in: session)
    }

    private func moveChangeFloor(to floor: Int, in session: PostgresSession) async throws {
        try await session.execute("DELETE FROM \(unescaped: names.tombstones) WHERE revision <= \(floor)")
        try await session.execute("DELETE FROM \(unescaped: names.writes) WHERE revision <= \(floor)")
        try await session.execute("UPDATE \(unescaped: names.storeRevision) SET change_floor = \(floor)")
    }

    /// The latest write after `end` whose overwritten range meets `(since, end]` (see `ChangePageEnd`).
    private func latestOverwrite(since: Int, end: Int, in session: PostgresSession) async throws -> Int? {
        try await session.rows(
            """
            SELECT max(revision) FROM \(unescaped: names.writes)
            WHERE revision > \(end) AND overwrote_first <= \(end) AND overwrote_last > \(since)
            """,
            as: Int?.self
        )[0]
    }
}
