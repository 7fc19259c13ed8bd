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
}
