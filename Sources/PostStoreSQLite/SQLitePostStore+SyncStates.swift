import Foundation
public import PostStore

extension SQLitePostStore {
    public nonisolated func syncState(for source: String) async throws -> SyncState? {
        try await read { tables in try tables.storedSyncState(for: source) }
    }

    public nonisolated func syncStates() async throws -> [SyncState] {
        try await read { tables in try tables.storedSyncStates() }
    }
}

extension SQLitePostTables {
    func storedSyncState(for source: String) throws(SQLiteError) -> SyncState? {
        try connection.withStatement(Self.selectSyncState + " WHERE source = ?") { statement throws(SQLiteError) in
            try statement.bind(source)
            return try statement.rows(Self.readSyncState).first
        }
    }

    /// Every sync state, newest first.
    func storedSyncStates() throws(SQLiteError) -> [SyncState] {
        try connection.withStatement(Self.selectSyncState + " ORDER BY synced_at_ms DESC, source") {
            statement throws(SQLiteError) in
            try statement.rows(Self.readSyncState)
        }
    }

    func save(_ state: SyncState) throws(SQLiteError) {
        try connection.withStatement(
            """
            INSERT OR REPLACE INTO sync_state
                (source, etag, synced_at_ms, fetched, inserted, updated, unchanged, deleted, change_token)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """
        ) { statement throws(SQLiteError) in
            try statement.bind(
                state.source,
                state.etag,
                state.syncedAtMilliseconds,
                state.fetched,
                state.inserted,
                state.updated,
                state.unchanged,
                state.deleted,
                state.changeToken?.description
            )
            try statement.run()
        }
    }

    /// The latest sync time of any source but `source` (compared byte for byte, as SQLite's default collation does).
    func latestSyncedAt(otherThan source: String) throws(SQLiteError) -> Int64? {
        let latest = "SELECT synced_at_ms FROM sync_state WHERE source <> ? ORDER BY synced_at_ms DESC LIMIT 1"
        return try connection.withStatement(latest) { statement throws(SQLiteError) in
            try statement.bind(source)
            return try statement.step() ? Int64(statement.int(at: 0)) : nil
        }
    }

    func storedChangeToken(for source: String) throws(SQLiteError) -> ChangeToken? {
        try connection.withStatement("SELECT change_token FROM sync_state WHERE source = ?") {
            statement throws(SQLiteError) in
            try statement.bind(source)
            return try statement.step() ? statement.optionalText(at: 0).flatMap(ChangeToken.init) : nil
        }
    }

    func storedETag(for source: String) throws(SQLiteError) -> String? {
        try connection.withStatement("SELECT etag FROM sync_state WHERE source = ?") { statement throws(SQLiteError) in
            try statement.bind(source)
            return try statement.step() ? statement.optionalText(at: 0) : nil
        }
    }

    private static let selectSyncState = """
        SELECT source, etag, synced_at_ms, fetched, inserted, updated, unchanged, deleted, change_token
        FROM sync_state
        """

    private static func readSyncState(_ row: SQLiteStatement) -> SyncState {
        var state = SyncState(
            source: row.text(at: 0),
            etag: row.optionalText(at: 1),
            syncedAt: Date(timeIntervalSince1970: 0),
            fetched: row.int(at: 3),
            inserted: row.int(at: 4),
            updated: row.int(at: 5),
            unchanged: row.int(at: 6),
            deleted: row.int(at: 7)
        )
        state.syncedAtMilliseconds = Int64(row.int(at: 2))
        // A token this build cannot read (written by hand) is no checkpoint: the next sync is a whole one.
        state.changeToken = row.optionalText(at: 8).flatMap(ChangeToken.init)
        return state
    }
}
