import PostStoreEngines

/// One of a store's read connections, an actor on a dispatch queue of its own: its SQLite calls block that queue's
/// thread, never one of Swift's cooperative pool, and callers suspend until it answers.
///
/// The connection opens on the first read (a store that is never read opens none) and is opened again by the next
/// read after a failed opening. It never writes (`PRAGMA query_only`); in WAL mode it reads the last committed
/// state while the writer writes, and a read transaction (``SQLiteConnection/readTransaction(_:)``) sees one
/// snapshot throughout.
actor SQLiteReader {
    private nonisolated let executor = DispatchQueueExecutor(label: "poststore.sqlite.reader")
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    private let fileCheck: SQLiteFileCheck
    private let keepsSearchIndex: Bool
    private var tables: SQLitePostTables?

    /// - Parameters:
    ///   - fileCheck: The store's check that its file is in place; it names the file.
    ///   - keepsSearchIndex: Whether the store keeps its search index.
    init(fileCheck: SQLiteFileCheck, keepsSearchIndex: Bool) {
        self.fileCheck = fileCheck
        self.keepsSearchIndex = keepsSearchIndex
    }

    /// Runs `body` on this reader's connection, opening it first when needed.
    ///
    /// Every read first refuses a store whose file was deleted or moved (``SQLiteFileCheck``).
    ///
    /// - Throws: What `body` throws; ``SQLiteError`` when the connection cannot be opened; ``PostStoreError`` with
    ///   code `storeNotFound` when the file was moved.
    func read<Result: Sendable>(_ body: @Sendable (SQLitePostTables) throws -> Result) throws -> Result {
        let tables = try self.tables ?? open()
        self.tables = tables
        try fileCheck.checkBeforeRead(tables.connection)
        return try body(tables)
    }

    private func open() throws -> SQLitePostTables {
        try fileCheck.refuseIfReplaced()
        let connection = try SQLiteConnection(
            path: SQLitePostStore.fileName(for: fileCheck.path),
            create: false,
            busyTimeout: SQLitePostStore.statementBusyTimeout
        )
        try connection.execute("PRAGMA query_only = ON")
        try SQLitePostTables.configure(connection)
        // The file may have been replaced between the look and the opening.
        try fileCheck.refuseIfReplaced()
        return SQLitePostTables(connection: connection, keepsSearchIndex: keepsSearchIndex)
    }
}
