public import PostStore
import PostStoreCSQLite
import PostStoreEngines

/// The changes feed (migrations 0006 and 0007): each post's `revision`, `post_tombstones`, `post_writes`, and the
/// `store_revision` row: the store's `store_id`, `revision`, `change_floor` and `change_history_limit`.
extension SQLitePostStore: ChangeHistoryKeeping {
    public nonisolated func changeHistory() async throws -> ChangeHistorySummary {
        try await read { tables in try tables.storedChangeLog().summary }
    }

    public func setChangeHistoryLimit(_ writes: Int) async throws {
        try ChangeHistory.validate(historyLimit: writes)
        try await write { tables in
            try tables.connection.withStatement(
                "UPDATE store_revision SET change_history_limit = ?"
            ) { statement throws(SQLiteError) in
                try statement.bind(writes)
                try statement.run()
            }
            if let floor = try tables.storedChangeLog().floor(afterSettingLimit: writes) {
                try tables.moveChangeFloor(to: floor)
            }
        }
    }

    public nonisolated func changeToken() async throws -> ChangeToken {
        try await read { tables in try tables.storedChangeLog().token }
    }

    public nonisolated func changes(since token: ChangeToken?, limit: Int) async throws -> PostChanges {
        try ChangeHistory.validate(limit: limit)
        return try await read { tables in try tables.changes(since: token, limit: limit) }
    }
}

/// The change log's statements (``TableChangeLog`` holds its algorithm).
extension SQLitePostTables {
    /// A page of the feed from one read transaction; see ``SQLitePostStore/changes(since:limit:)``.
    func changes(since token: ChangeToken?, limit: Int) throws -> PostChanges {
        try connection.readTransaction {
            let log = try storedChangeLog()
            guard let since = try log.start(since: token) else {
                return log.wholeCopy(try run(SQLiteQueryPlan(PostQuery(), usingSearchIndex: false)))
            }
            var end = log.firstEnd(
                since: since,
                limit: limit,
                upcoming: try revisionsOfChanges(since: since, first: limit + 1)
            )
            while let later = try latestOverwrite(since: since, end: end), later > end { end = later }
            return log.answer(
                posts: try postsWritten(after: since, through: end),
                deletedIds: try idsDeleted(after: since, through: end),
                end: end
            )
        }
    }

    /// The store's identity, revision, history floor and limit.
    func storedChangeLog() throws(SQLiteError) -> TableChangeLog {
        let rows = try connection.withStatement(
            "SELECT store_id, revision, change_floor, change_history_limit FROM store_revision"
        ) { statement throws(SQLiteError) in
            try statement.rows {
                TableChangeLog(
                    storeID: $0.text(at: 0),
                    revision: $0.int(at: 1),
                    floor: $0.int(at: 2),
                    limit: $0.int(at: 3)
                )
            }
        }
        guard rows.count == 1, let log = rows.first else {
            throw SQLiteError(extendedCode: SQLITE_CORRUPT, message: "store_revision holds \(rows.count) rows, not 1")
        }
        return log
    }

    /// Records a write that changed posts as the revision after `log`'s (read when the write began).
    func recordChanges(after log: TableChangeLog, overwritten: OverwrittenRevisions) throws(SQLiteError) {
        let record = log.record(overwritten)
        try countRevision()
        if let range = record.overwritten {
            try connection.withStatement(
                "INSERT INTO post_writes (revision, overwrote_first, overwrote_last) VALUES (?, ?, ?)"
            ) { statement throws(SQLiteError) in
                try statement.bind(record.revision, range.lowerBound, range.upperBound)
                try statement.run()
            }
        }
        if let floor = record.newFloor { try moveChangeFloor(to: floor) }
    }

    /// Begins the history at the store's revision: every earlier token must refetch (the store was emptied).
    func startChangeHistoryAtTheRevision() throws(SQLiteError) {
        try moveChangeFloor(to: try storedChangeLog().revision)
    }

    func moveChangeFloor(to floor: Int) throws(SQLiteError) {
        for sql in [
            "DELETE FROM post_tombstones WHERE revision <= ?",
            "DELETE FROM post_writes WHERE revision <= ?",
            "UPDATE store_revision SET change_floor = ?",
        ] {
            try connection.withStatement(sql) { statement throws(SQLiteError) in
                try statement.bind(floor)
                try statement.run()
            }
        }
    }

    /// The revisions of the first `count` changes after `since`, posts and tombstones merged in revision order.
    private func revisionsOfChanges(since: Int, first count: Int) throws(SQLiteError) -> [Int] {
        func first(_ sql: String) throws(SQLiteError) -> [Int] {
            try connection.withStatement(sql) { statement throws(SQLiteError) in
                try statement.bind(since, count)
                return try statement.rows { $0.int(at: 0) }
            }
        }
        let written = try first("SELECT revision FROM posts WHERE revision > ? ORDER BY revision LIMIT ?")
        let deleted = try first("SELECT revision FROM post_tombstones WHERE revision > ? ORDER BY revision LIMIT ?")
        return Array((written + deleted).sorted().prefix(count))
    }

    /// The latest write after `end` whose overwritten range meets `(since, end]` (see `ChangePageEnd`).
    private func latestOverwrite(since: Int, end: Int) throws(SQLiteError) -> Int? {
        try connection.withStatement(
            """
            SELECT max(revision) FROM post_writes
            WHERE revision > ? AND overwrote_first <= ? AND overwrote_last > ?
            """
        ) { statement throws(SQLiteError) in
            try statement.bind(end, end, since)
            return try statement.rows { $0.optionalInt(at: 0) }.first ?? nil
        }
    }

    /// The posts written in `(since, end]`, found through the revision index: without the hint SQLite scans every
    /// post in id order to spare a sort, dozens of times slower (Benchmarks/README.md, "Figures behind the code").
    private func postsWritten(after since: Int, through end: Int) throws(SQLiteError) -> [Post] {
        try connection.withStatement(
            """
            SELECT id, user_id, title, body FROM posts INDEXED BY posts_revision
            WHERE revision > ? AND revision <= ? ORDER BY id
            """
        ) { statement throws(SQLiteError) in
            try statement.bind(since, end)
            return try statement.rows(Self.readPost)
        }
    }

    private func idsDeleted(after since: Int, through end: Int) throws(SQLiteError) -> [Int] {
        try connection.withStatement(
            "SELECT id FROM post_tombstones WHERE revision > ? AND revision <= ? ORDER BY id"
        ) { statement throws(SQLiteError) in
            try statement.bind(since, end)
            return try statement.rows { $0.int(at: 0) }
        }
    }
}
