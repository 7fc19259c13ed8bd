import PostStore

/// A store's tables through one connection: the engine's SQL, run by the store's writer (``SQLitePostStore``'s
/// actor) or by one of its readers (``SQLiteReader``).
///
/// It holds nothing but the connection and how the store keeps its search index; whoever owns the connection runs
/// it on that owner's executor, one call at a time, never on Swift's cooperative pool.
struct SQLitePostTables {
    /// The connection, used by its owner alone.
    let connection: SQLiteConnection
    /// Whether the store keeps its text-search index (see ``SQLitePostStore/init(path:mode:busyTimeout:searchIndex:)``).
    let keepsSearchIndex: Bool

    var searchIndex: SQLiteSearchIndex { SQLiteSearchIndex(connection: connection) }

    /// What every connection to a store sets up, the writer's and each reader's: PostStore's SQL functions, and a
    /// 16 MiB page cache (SQLite's default is 2 MiB), which keeps the inner pages of a million-post table and its
    /// indexes in memory, so that a lookup reads one leaf page from the file.
    static func configure(_ connection: SQLiteConnection) throws(SQLiteError) {
        try connection.execute("PRAGMA cache_size = -16384")
        try SQLiteSearchFunction.register(on: connection)
    }
}
