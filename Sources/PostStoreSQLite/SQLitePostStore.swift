import Foundation
public import PostStore
import PostStoreCSQLite

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
/// An actor owning one connection: calls on one store are serialized, and callers waiting for their turn suspend
/// rather than block a thread. A write waiting for another connection's write lock (up to the busy timeout)
/// suspends between tries too; only opening, which is synchronous, waits inside SQLite.
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

    let connection: SQLiteConnection
    let keepsSearchIndex: Bool
    let busyTimeout: Duration
    let clock: any ClockProtocol
    /// The watcher this store's observers share.
    package nonisolated let watcherSlot = ChangeWatcherSlot()

    /// How long a single statement may wait inside SQLite for a lock other than the write lock (in WAL mode that is
    /// rare: a checkpoint or a recovery in another connection). Kept short because it blocks the calling thread.
    private static let statementBusyTimeout = Duration.milliseconds(200)
    var searchIndex: SQLiteSearchIndex { SQLiteSearchIndex(connection: connection) }
    /// When a read last found the database file where it was opened; see `read`.
    private var fileLastFoundInPlace: ContinuousClock.Instant?
    /// Whether the database file was found deleted or moved: from then on every call is refused.
    private var hasMoved = false
    /// How long reads trust the last look that found the file in place.
    private let movedCheckInterval: Duration

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
            migrator: SQLiteMigrator(),
            clock: clock
        )
    }

    /// Opens the store with a chosen set of migrations (tests use it to build old and new schemas), or a new store
    /// that no other connection sees yet.
    ///
    /// - Parameter progress: Told of the search index's rebuild, when a stale one is rebuilt on opening.
    /// - Parameter buildingOffToTheSide: Whether the file is a new store being built in a staging folder
    ///   (``NewStoreStaging``): no other connection opens it, and a failed build is deleted whole, so it needs no
    ///   write-ahead log and no flush per commit. It keeps its rollback journal in memory (a failed write still
    ///   rolls back) with `synchronous = OFF`; ``finishBuildingOffToTheSide(at:)`` turns it into an ordinary store.
    init(
        path: String,
        mode: StoreOpenMode,
        busyTimeout: Duration,
        searchIndex: Bool = true,
        migrator: SQLiteMigrator,
        clock: any ClockProtocol,
        movedCheckInterval: Duration = .milliseconds(1),
        buildingOffToTheSide: Bool = false,
        progress: (WorkProgress) -> Void = { _ in }
    ) throws {
        self.path = path
        self.movedCheckInterval = movedCheckInterval
        self.keepsSearchIndex = searchIndex
        self.busyTimeout = busyTimeout
        self.clock = clock
        try PathCheck.validate(path, naming: "The SQLite store's path")
        if mode == .openExisting, !SQLiteConnection.databaseExists(atPath: path) {
            throw Self.noStore(at: path)
        }
        if !buildingOffToTheSide { try Self.checkNoLogLeftBehind(at: path) }
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
            let journalMode = try connection.withStatement("PRAGMA journal_mode") { statement throws(SQLiteError) in
                try statement.rows { $0.text(at: 0) }
            }
            if buildingOffToTheSide {
                try connection.execute("PRAGMA journal_mode = MEMORY; PRAGMA synchronous = OFF")
            } else {
                if journalMode != ["wal"] {
                    try connection.execute("PRAGMA journal_mode = WAL")
                }
                try connection.execute("PRAGMA synchronous = NORMAL")
            }
            // A 16 MiB page cache (SQLite's default is 2 MiB) keeps the inner pages of a million-post table and its
            // indexes in memory, so a lookup reads one leaf page from the file.
            try connection.execute("PRAGMA foreign_keys = ON; PRAGMA cache_size = -16384")
            try SQLiteSearchFunction.register(on: connection)
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
            self.connection = connection
        } catch let error as SQLiteError {
            throw error.postStoreError(path: path)
        }
    }

    /// Turns a store built with `buildingOffToTheSide` into an ordinary one: its header switched to WAL mode, as
    /// every store this engine opens is. Call it after the building store is closed (released).
    ///
    /// - Parameter path: The built store.
    /// - Throws: ``PostStoreError`` when the file cannot be opened or written.
    package static func finishBuildingOffToTheSide(at path: String) throws {
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

    /// Runs a read, refusing a store whose file was deleted or moved while open: its `-wal` and `-shm` files may
    /// belong to a new file by now, so answers from the old one could be wrong or fail obscurely.
    ///
    /// The check costs a `stat` of the path, more than a lookup by id, so reads look again only once
    /// `movedCheckInterval` (1 ms) has passed since the last look found the file in place: a read may answer from a
    /// file deleted less than a millisecond ago, as it would have just before. Writes look every time, under the
    /// write lock; once a look finds the file gone, every later call is refused. (The interval is measured on the
    /// system's monotonic clock, not the injected one: it bounds staleness in real time, and a test clock that
    /// never advances would turn it into "look once".)
    func read<Result>(_ body: () throws -> Result) throws -> Result {
        let now = ContinuousClock.now
        if hasMoved || fileLastFoundInPlace.map({ now - $0 >= movedCheckInterval }) ?? true {
            try refuseIfMoved(nothingWritten: false)
            fileLastFoundInPlace = now
        }
        return try sqlite(body)
    }

    func refuseIfMoved(nothingWritten: Bool) throws {
        guard hasMoved || connection.fileHasMoved() else { return }
        hasMoved = true
        let consequence = nothingWritten ? "; nothing was written" : ""
        throw PostStoreError(
            .storeNotFound,
            "The SQLite store \(path) was deleted or moved while it was open\(consequence).",
            path: path
        )
    }

    /// Runs SQLite work, turning a ``SQLiteError`` into the ``PostStoreError`` callers see.
    private func sqlite<Result>(_ body: () throws -> Result) throws -> Result {
        do {
            return try body()
        } catch let error as SQLiteError {
            throw error.postStoreError(path: path)
        }
    }
}
