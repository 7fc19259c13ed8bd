package import PostStore
import PostStoreEngines

/// Observation of a SQLite store: a commit by any process writes the write-ahead log (or, in rollback mode, the
/// journal and the file), which inotify reports, and moves `PRAGMA data_version` (``SQLiteDataVersion``).
extension SQLitePostStore: ObservedStore {
    package nonisolated func makeCommitProbe() -> any CommitProbe {
        let version = SQLiteDataVersion(path: path)
        return FileCommitProbe(files: [path, path + "-wal", path + "-journal"]) { try await version.read() }
    }
}

/// `PRAGMA data_version` of a store, read on a connection of its own that never writes: it moves with every
/// commit of every other connection, in this process (the store's own) or another, and costs a few microseconds
/// (SQLite compares the write-ahead log's header in shared memory). It runs on a queue of its own, as the store's
/// connections do.
actor SQLiteDataVersion {
    private nonisolated let executor = DispatchQueueExecutor(label: "poststore.sqlite.data-version")
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
    private let path: String
    private var connection: SQLiteConnection?

    /// - Parameter path: The store's file.
    init(path: String) {
        self.path = path
    }

    /// The version now.
    ///
    /// - Throws: ``PostStoreError``: `storeNotFound` once the file was deleted or moved, SQLite's errors as the
    ///   store maps them.
    func read() throws -> Int {
        do {
            let connection =
                try self.connection
                ?? SQLiteConnection(
                    path: SQLitePostStore.fileName(for: path),
                    create: false,
                    busyTimeout: .milliseconds(200)
                )
            self.connection = connection
            if connection.fileHasMoved() {
                throw PostStoreError(
                    .storeNotFound,
                    "The SQLite store \(path) was deleted or moved while it was observed.",
                    path: path
                )
            }
            return try connection.withStatement("PRAGMA data_version") { statement throws(SQLiteError) in
                try statement.rows { $0.int(at: 0) }
            }.first ?? 0
        } catch let error as SQLiteError {
            throw error.postStoreError(path: path)
        }
    }
}
