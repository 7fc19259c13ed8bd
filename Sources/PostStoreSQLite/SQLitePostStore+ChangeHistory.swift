public import PostStore
import PostStoreCSQLite

/// The changes feed (migration 0006): each post's `revision`, `post_tombstones`, `post_writes`, and in
/// `poststore_settings` the store's `store_id`, `revision`, `change_floor` and `change_history_limit`.
extension SQLitePostStore: ChangeHistoryKeeping {
    public nonisolated func changeHistory() async throws -> ChangeHistorySummary {
        try await read { tables in try tables.storedChangeHistory().summary }
    }

    public func setChangeHistoryLimit(_ writes: Int) async throws {
        try ChangeHistory.validate(historyLimit: writes)
        try await write { tables in
            try tables.connection.withStatement(
                "UPDATE poststore_settings SET value = CAST(? AS TEXT) WHERE key = 'change_history_limit'"
            ) { statement throws(SQLiteError) in
                try statement.bind(writes)
                try statement.run()
            }
            let history = try tables.storedChangeHistory()
            if history.revision - history.floor > writes { try tables.moveChangeFloor(to: history.revision - writes) }
        }
    }

    public nonisolated func changeToken() async throws -> ChangeToken {
        try await read { tables in try tables.storedChangeHistory().token }
    }

    public nonisolated func changes(since token: ChangeToken?, limit: Int) async throws -> PostChanges {
        try ChangeHistory.validate(limit: limit)
        return try await read { tables in try tables.changes(since: token, limit: limit) }
    }
}

extension SQLitePostTables {
    /// A page of the feed from one read transaction; see ``SQLitePostStore/changes(since:limit:)``.
    func changes(since token: ChangeToken?, limit: Int) throws -> PostChanges {
        try connection.readTransaction {
            let history = try storedChangeHistory()
            guard let token else {
                return PostChanges(
                    posts: try run(SQLiteQueryPlan(PostQuery(), usingSearchIndex: false)),
                    deletedIds: [],
                    next: history.token,
                    isCaughtUp: true
                )
            }
            try history.check(token)
            let upcoming = try revisionsOfChanges(since: token.revision, first: limit + 1)
            let end = try ChangePageEnd.find(
                since: token.revision,
                head: history.revision,
                limit: limit,
                revisionOfChange: { (n: Int) throws(SQLiteError) -> Int? in
                    n <= upcoming.count ? upcoming[n - 1] : nil
                },
                latestOverwrite: latestOverwrite(since:end:)
            )
            return PostChanges(
                posts: try postsWritten(after: token.revision, through: end),
                deletedIds: try idsDeleted(after: token.revision, through: end),
                next: ChangeToken(storeID: history.storeID, revision: end),
                isCaughtUp: end == history.revision
            )
        }
    }

    /// The store's identity, revision, history floor and limit.
    func storedChangeHistory() throws(SQLiteError) -> StoredChangeHistory {
        let values = try connection.withStatement(
            """
            SELECT key, value FROM poststore_settings
            WHERE key IN ('store_id', 'revision', 'change_floor', 'change_history_limit')
            """
        ) { statement throws(SQLiteError) in
            Dictionary(uniqueKeysWithValues: try statement.rows { ($0.text(at: 0), $0.text(at: 1)) })
        }
        guard let storeID = values["store_id"], let revision = values["revision"].flatMap({ Int($0) }),
            let floor = values["change_floor"].flatMap({ Int($0) }),
            let limit = values["change_history_limit"].flatMap({ Int($0) })
        else {
            throw SQLiteError(
                extendedCode: SQLITE_CORRUPT,
                message: "poststore_settings lacks the change history's keys"
            )
        }
        return StoredChangeHistory(storeID: storeID, revision: revision, floor: floor, limit: limit)
    }

    /// Records a write that changed posts as the revision after `history`'s (read when the write began): the
    /// store's revision, what it overwrote, and the history compacted when it is time.
    func recordChanges(after history: StoredChangeHistory, overwritten: OverwrittenRevisions) throws(SQLiteError) {
        let revision = history.revision + 1
        try countRevision()
        if let range = overwritten.range {
            try connection.withStatement(
                "INSERT INTO post_writes (revision, overwrote_first, overwrote_last) VALUES (?, ?, ?)"
            ) { statement throws(SQLiteError) in
                try statement.bind(revision, range.lowerBound, range.upperBound)
                try statement.run()
            }
        }
        if let floor = history.floorAfterNextWrite { try moveChangeFloor(to: floor) }
    }

    /// Begins the history at the store's revision: every earlier token must refetch (the store was emptied).
    func startChangeHistoryAtTheRevision() throws(SQLiteError) {
        try moveChangeFloor(to: try storedChangeHistory().revision)
    }

    func moveChangeFloor(to floor: Int) throws(SQLiteError) {
        for sql in [
            "DELETE FROM post_tombstones WHERE revision <= ?",
            "DELETE FROM post_writes WHERE revision <= ?",
            "UPDATE poststore_settings SET value = CAST(? AS TEXT) WHERE key = 'change_floor'",
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
