import Foundation
public import PostStore
import PostStoreCSQLite
import PostStoreEngines

/// A store in one SQLite database file: the engine for real data, up to millions of posts.
///
/// The schema comes from the versioned files in `Migrations/SQLite/`, applied on open (see the guide's "Choosing an
/// Engine").
/// Posts live in `posts(id INTEGER PRIMARY KEY, user_id, title, body)` with an index on `user_id`; text search is
/// served by `posts_search`, a contentless FTS5 trigram index over the lowercased title and body that this store
/// keeps in the same transaction as the posts (see ``init(path:mode:busyTimeout:searchIndex:)`` to write without
/// it). The connection runs in WAL mode (readers never block the writer) with `synchronous = NORMAL`, foreign keys
/// on and a busy timeout, so concurrent processes wait for each other instead of failing. Every value is bound as a
/// parameter: no user text is ever spliced into SQL.
///
/// Durability: a returned write survives a crash of the process. In a power loss, WAL mode with
/// `synchronous = NORMAL` may lose the last commits, but the database stays consistent (SQLite's own promise).
///
/// Concurrency, as GRDB's `DatabasePool`: one writer connection and a pool of reader connections (four by
/// default), each on a dispatch queue of its own, so no SQLite call ever runs on Swift's cooperative pool: callers
/// suspend while it runs. Writes are serialized on the writer, an actor that runs on its connection's queue; reads
/// go to an idle reader, so a read never waits for a write, and while fewer slow reads than readers are in flight a
/// fast read never waits for a slow one. Each read sees one committed state (a read of several statements runs in
/// one read transaction). A write waiting for another process's write lock (up to the busy timeout) suspends
/// between tries; only opening, which is synchronous, runs on the caller's thread. A store not in WAL mode (one
/// being staged, or a read-only file in another journal mode) reads on its writer.
///
/// For example:
///
/// ```swift
/// let store = try SQLitePostStore(path: "posts.sqlite")
/// let hits = try await store.query(PostQuery(search: "dolor", limit: 10))
/// ```
public actor SQLitePostStore: PostStoreProtocol {
    /// The database file.
    public nonisolated let path: String

    /// How many reader connections a store opens at most by default.
    public static let defaultReaderCount = 4

    /// The writer's queue, which this actor runs on.
    private nonisolated let executor = DispatchQueueExecutor(label: "poststore.sqlite.writer")
    /// The writer's connection: every write, and the reads of a store without readers.
    let writer: SQLitePostTables
    /// The reader connections, or `nil` when the store is not in WAL mode and reads on its writer.
    private nonisolated let readers: SQLiteReaderPool?
    let busyTimeout: Duration
    let clock: any ClockProtocol
    /// Whether the file is still where it was opened.
    nonisolated let fileCheck: SQLiteFileCheck
    /// The watcher this store's observers share.
    package nonisolated let watcherSlot = ChangeWatcherSlot()

    /// The writer's executor: a queue of its own, where the whole of every write runs.
    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    /// How long a single statement may wait inside SQLite for a lock other than the write lock (in WAL mode that is
    /// rare: a checkpoint or a recovery in another connection). It blocks the connection's own thread.
    static let statementBusyTimeout = Duration.milliseconds(200)

    /// Opens the store at `path` and applies any pending migration.
    ///
    /// - Parameters:
    ///   - path: The database file.
    ///   - mode: With `StoreOpenMode/createIfMissing` a missing file is created; with
    ///     `StoreOpenMode/openExisting` it is an error.
    ///   - busyTimeout: How long an operation waits for another process's write before failing with
    ///     `PostStoreError/Code/storeBusy`.
    ///   - searchIndex: Whether to keep the text-search index. Without it, writes are cheaper and searches scan
    ///     every post (same results, slower); the index is then marked stale, and the next store opened with it
    ///     rebuilds it in one pass.
    ///   - clock: What a write waiting for another process's lock measures and sleeps on.
    /// - Throws: `PostStoreError`: `storeNotFound`, `corruptStore` (also for another application's database),
    ///   `unsupportedVersion`, `migrationMismatch`, `ioFailure`, `storeBusy`.
    public init(
        path: String,
        mode: StoreOpenMode,
        busyTimeout: Duration,
        searchIndex: Bool,
        clock: any ClockProtocol
    ) throws {
        try self.init(
            path: path,
            mode: mode,
            busyTimeout: busyTimeout,
            searchIndex: searchIndex,
            clock: clock,
            readers: Self.defaultReaderCount
        )
    }

    /// Opens the store at `path` with at most `readers` reader connections, and applies any pending migration.
    ///
    /// - Parameters:
    ///   - path: The database file.
    ///   - mode: Whether a missing file is created or an error.
    ///   - busyTimeout: How long an operation waits for another process's write.
    ///   - searchIndex: Whether to keep the text-search index.
    ///   - clock: What a write waiting for another process's lock measures and sleeps on.
    ///   - readers: How many reader connections the store opens at most, each when a read finds the others busy
    ///     (at least 1; ``defaultReaderCount`` unless told). More let more slow reads run at once beside fast
    ///     ones; each holds a page cache of up to 16 MiB.
    /// - Throws: `PostStoreError`, as ``init(path:mode:busyTimeout:searchIndex:clock:)``.
    public init(
        path: String,
        mode: StoreOpenMode,
        busyTimeout: Duration,
        searchIndex: Bool,
        clock: any ClockProtocol,
        readers: Int
    ) throws {
        try self.init(
            path: path,
            mode: mode,
            busyTimeout: busyTimeout,
            searchIndex: searchIndex,
            migrator: SQLiteMigrator(),
            clock: clock,
            readers: readers
        )
    }

    /// Opens the store with a chosen set of migrations (tests use it to build old and new schemas), or a new store
    /// that no other connection sees yet.
    ///
    /// - Parameter progress: Told of the search index's rebuild, when a stale one is rebuilt on opening.
    /// - Parameter staged: Whether the file is a new store being built in a staging folder
    ///   (``NewStoreStaging``): no other connection opens it, and a failed build is deleted whole, so it needs no
    ///   write-ahead log and no flush per commit. It keeps its rollback journal in memory (a failed write still
    ///   rolls back) with `synchronous = OFF`; ``finishStaging(at:)`` turns it into an ordinary store.
    init(
        path: String,
        mode: StoreOpenMode,
        busyTimeout: Duration,
        searchIndex: Bool = true,
        migrator: SQLiteMigrator,
        clock: any ClockProtocol,
        readers: Int = SQLitePostStore.defaultReaderCount,
        movedCheckInterval: Duration = .milliseconds(1),
        staged: Bool = false,
        progress: (WorkProgress) -> Void = { _ in }
    ) throws {
        self.path = path
        self.busyTimeout = busyTimeout
        self.clock = clock
        try PathCheck.validate(path, naming: "The SQLite store's path")
        if mode == .openExisting, !SQLiteConnection.databaseExists(atPath: path) {
            throw Self.noStore(at: path)
        }
        if !staged { try Self.checkNoLogLeftBehind(at: path) }
        do {
            let connection = try SQLiteConnection(
                path: Self.fileName(for: path),
                create: mode == .createIfMissing,
                busyTimeout: busyTimeout
            )
            // Reading first turns a file that is not a database, or not ours, into a clear error before any write.
            try migrator.checkCanOpen(connection)
            // Switching to WAL writes the file's header; a file already in WAL mode is left alone (and a read-only
            // one can still be opened to read).
            func journalMode(_ pragma: String) throws(SQLiteError) -> [String] {
                try connection.withStatement(pragma) { statement throws(SQLiteError) in
                    try statement.rows { $0.text(at: 0) }
                }
            }
            // Whether readers may read beside the writer: in another journal mode a reader's lock would stop it.
            let isWAL: Bool
            if staged {
                try connection.execute("PRAGMA journal_mode = MEMORY; PRAGMA synchronous = OFF")
                isWAL = false
            } else {
                var mode = try journalMode("PRAGMA journal_mode")
                if mode != ["wal"] { mode = try journalMode("PRAGMA journal_mode = WAL") }
                isWAL = mode == ["wal"]
                try connection.execute("PRAGMA synchronous = NORMAL")
            }
            try connection.execute("PRAGMA foreign_keys = ON")
            try SQLitePostTables.configure(connection)
            try migrator.migrate(connection)
            let index = SQLiteSearchIndex(connection: connection)
            if searchIndex, try !index.isCurrent() {
                do {
                    try connection.writeTransaction { try index.rebuild(progress: progress) }
                } catch let error as SQLiteError where error.primaryCode == SQLITE_READONLY {
                    // A store that cannot be written can still be read: searches scan until the index is rebuilt.
                }
            }
            // Opening is synchronous and may wait the whole busy timeout; later writes wait in `write`.
            connection.setBusyTimeout(Self.statementBusyTimeout)
            writer = SQLitePostTables(connection: connection, keepsSearchIndex: searchIndex)
            let fileCheck = SQLiteFileCheck(path: path, interval: movedCheckInterval)
            self.fileCheck = fileCheck
            self.readers =
                isWAL
                ? SQLiteReaderPool(capacity: readers) {
                    SQLiteReader(fileCheck: fileCheck, keepsSearchIndex: searchIndex)
                } : nil
        } catch let error as SQLiteError {
            throw error.postStoreError(path: path)
        }
    }

    /// Turns a store built with `staged` into an ordinary one: its header switched to WAL mode, as
    /// every store this engine opens is. Call it after the building store is closed (released).
    ///
    /// - Parameter path: The built store.
    /// - Throws: ``PostStoreError`` when the file cannot be opened or written.
    package static func finishStaging(at path: String) throws {
        do {
            let connection = try SQLiteConnection(path: fileName(for: path), create: false, busyTimeout: .seconds(5))
            try connection.execute("PRAGMA journal_mode = WAL")
        } catch {
            throw error.postStoreError(path: path)
        }
    }

    /// Refuses to create a store where a write-ahead log (or a rollback journal) lies without its database file:
    /// what is left when a store's file was deleted or moved while a process had it open. SQLite would take that
    /// log for the new file's and replay another store's writes into it, or damage it.
    ///
    /// - Parameter path: The store's path.
    /// - Throws: ``PostStoreError`` with code `corruptStore` when there is no file at `path` and a log or journal
    ///   beside it is not empty.
    package static func checkNoLogLeftBehind(at path: String) throws {
        guard !FileManager.default.fileExists(atPath: path) else { return }
        for suffix in ["-wal", "-journal"] {
            let leftover = path + suffix
            let size = (try? FileManager.default.attributesOfItem(atPath: leftover)[.size] as? NSNumber)?.intValue
            guard let size, size > 0 else { continue }
            throw PostStoreError(
                .corruptStore,
                "\(leftover) is left from a SQLite store whose file \(path) is gone (deleted or moved while open): "
                    + "a new store there would take in its writes. Put the file back, or delete \(leftover) and "
                    + "\(path)-shm if that store is gone for good; nothing was written.",
                path: path
            )
        }
    }

    /// The error for opening a store that is not there: no file, or an empty one nothing was ever written to.
    static func noStore(at path: String) -> PostStoreError {
        let isEmptyFile = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue == 0
        return PostStoreError(
            .storeNotFound,
            "There is no SQLite store at \(path)\(isEmptyFile ? " (the file is empty: nothing was ever synced into it)" : "").",
            path: path
        )
    }

    /// The name SQLite opens for `path`: always a file. Without a leading `./`, SQLite would take a relative path
    /// of ":memory:" as a private in-memory database and one starting with "file:" as a URI. (Bytes decide: `"/"` and
    /// a combining mark after it are one `Character`, and `hasPrefix("/")` is false for it.)
    static func fileName(for path: String) -> String {
        path.isAbsolutePath || path.utf8.starts(with: "./".utf8) ? path : "./" + path
    }

    /// Runs a read on an idle reader (or on the writer, for a store without readers), refusing a store whose file
    /// was deleted or moved while open (``SQLiteFileCheck``), and turning a ``SQLiteError`` into the
    /// ``PostStoreError`` callers see.
    nonisolated func read<Result: Sendable>(
        _ body: @escaping @Sendable (SQLitePostTables) throws -> Result
    ) async throws -> Result {
        do {
            guard let readers else { return try await readOnWriter(body) }
            return try await readers.read(body)
        } catch let error as SQLiteError {
            throw error.postStoreError(path: path)
        }
    }

    private func readOnWriter<Result: Sendable>(
        _ body: @Sendable (SQLitePostTables) throws -> Result
    ) throws
        -> Result
    {
        try fileCheck.checkBeforeRead(writer.connection)
        return try body(writer)
    }
}

extension SQLitePostStore: NonblockingStore {}
