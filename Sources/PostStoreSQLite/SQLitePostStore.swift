import Foundation
public import PostStore
import PostStoreCSQLite

/// A store in one SQLite database file: the engine for real data, up to millions of posts.
///
/// The schema comes from the versioned files in `Migrations/`, applied on open (see the README's "Migrations").
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

    private let connection: SQLiteConnection
    private let keepsSearchIndex: Bool
    private let busyTimeout: Duration
    private let clock: any ClockProtocol

    /// How long a single statement may wait inside SQLite for a lock other than the write lock (in WAL mode that is
    /// rare: a checkpoint or a recovery in another connection). Kept short because it blocks the calling thread.
    private static let statementBusyTimeout = Duration.milliseconds(200)
    private var searchIndex: SQLiteSearchIndex { SQLiteSearchIndex(connection: connection) }
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
    ///   - mode: With ``StoreOpenMode/createIfMissing`` a missing file is created; with
    ///     ``StoreOpenMode/openExisting`` it is an error.
    ///   - busyTimeout: How long an operation waits for another process's write before failing with
    ///     ``PostStoreError/Code/storeBusy``.
    ///   - searchIndex: Whether to keep the text-search index. Without it, writes are cheaper and searches scan
    ///     every post (same results, slower); the index is then marked stale, and the next store opened with it
    ///     rebuilds it in one pass.
    ///   - clock: What a write waiting for another process's lock measures and sleeps on.
    /// - Throws: ``PostStoreError``: `storeNotFound`, `corruptStore` (also for another application's database),
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
        buildingOffToTheSide: Bool = false
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
                    try connection.writeTransaction { try index.rebuild() }
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

    @discardableResult
    public func apply(_ changes: PostChangeSet) async throws -> WriteSummary {
        try await apply(changes, streaming: PostStream([]))
    }

    /// Applies a change set and a stream of upserts batch by batch in one transaction: memory for one batch and
    /// the set of ids seen, whatever the stream's size.
    ///
    /// Into an empty store posts are inserted without looking up each id first, and the search index is built in
    /// one pass at the end (several times cheaper than adding the posts one by one).
    @discardableResult
    public func apply(_ changes: PostChangeSet, streaming upserts: PostStream) async throws -> WriteSummary {
        try changes.validate()
        return try await write {
            try rebuildSearchIndexIfStaleAndKept()
            var reader = try upserts.makeReader()
            let summary = try perform(changes, streaming: &reader, writing: true)
            if summary.changedAnything {
                try connection.execute("UPDATE sync_state SET etag = NULL WHERE etag IS NOT NULL")
            }
            if let state = try changes.syncState(
                after: summary,
                storedETag: storedETag,
                latestSyncedAt: latestSyncedAt(otherThan:)
            ) {
                try save(state)
            }
            if !keepsSearchIndex, summary.changedAnything, try searchIndex.isCurrent() {
                try searchIndex.markStale()
            }
            return summary
        }
    }

    public func preview(_ changes: PostChangeSet) throws -> WriteSummary {
        try preview(changes, streaming: PostStream([]))
    }

    public func preview(_ changes: PostChangeSet, streaming upserts: PostStream) throws -> WriteSummary {
        try changes.validate()
        return try read {
            try connection.readTransaction {
                var reader = try upserts.makeReader()
                return try perform(changes, streaming: &reader, writing: false)
            }
        }
    }

    public func post(id: Int) throws -> Post? {
        try read { try storedPost(id: id) }
    }

    public func query(_ query: PostQuery) throws -> [Post] {
        try query.validate()
        return try read {
            guard keepsSearchIndex, SQLiteSearchIndex.matchExpression(for: TextSearch(query.search).terms) != nil
            else { return try run(SQLiteQueryPlan(query, usingSearchIndex: false)) }
            do {
                // The index's state and the query must come from one snapshot.
                return try connection.readTransaction {
                    try run(SQLiteQueryPlan(query, usingSearchIndex: searchIndex.isCurrent()))
                }
            } catch let error as SQLiteError where error.isCorruptVirtualTable {
                // The index disagrees with the posts (see `write`); the posts alone still give the right answer.
                return try run(SQLiteQueryPlan(query, usingSearchIndex: false))
            }
        }
    }

    public func count() throws -> Int {
        try read { try storedCount() }
    }

    public func removeAll() async throws {
        try await write {
            // An empty index is current, whether or not this store keeps it.
            try connection.execute(
                """
                DELETE FROM posts;
                DELETE FROM sync_state;
                DELETE FROM poststore_settings WHERE key = 'search_index';
                """
            )
            try searchIndex.removeAll()
        }
    }

    /// Rebuilds the search index from the posts, in one transaction.
    ///
    /// PostStore keeps the index itself, so this is needed only after posts were written by another tool, such as
    /// the `sqlite3` shell: until then such posts may be missing from search results. (When PostStore itself later
    /// changes or deletes such a post, FTS5 notices the mismatch and that write rebuilds the index by itself.)
    ///
    /// - Throws: ``PostStoreError``.
    public func rebuildSearchIndex() async throws {
        try await write { try searchIndex.rebuild() }
    }

    public func syncState(for source: String) throws -> SyncState? {
        try read {
            try connection.withStatement(Self.selectSyncState + " WHERE source = ?") { statement throws(SQLiteError) in
                try statement.bind(source)
                return try statement.rows(Self.readSyncState).first
            }
        }
    }

    public func syncStates() throws -> [SyncState] {
        try read { try storedSyncStates() }
    }

    /// Every sync state, newest first.
    private func storedSyncStates() throws(SQLiteError) -> [SyncState] {
        try connection.withStatement(Self.selectSyncState + " ORDER BY synced_at_ms DESC, source") {
            statement throws(SQLiteError) in
            try statement.rows(Self.readSyncState)
        }
    }

    // MARK: - Statements

    /// Counts what a change set and a stream of upserts do to the posts and, when `writing`, does it; the caller
    /// holds a transaction (a write transaction when `writing`, which is rolled back when this throws).
    ///
    /// Deletions are decided once every upsert is known, and checked against the change set's limit before any is
    /// made.
    private func perform(
        _ changes: PostChangeSet,
        streaming reader: inout some PostReader,
        writing: Bool
    ) throws -> WriteSummary {
        // An empty store needs no lookups, and its search index is built in one pass after the posts. (Counting
        // the posts would read the whole table; a 304 re-sync of a million posts would pay for it.)
        let isBulkLoad = try connection.withStatement("SELECT NOT EXISTS (SELECT 1 FROM posts)") {
            statement throws(SQLiteError) in
            _ = try statement.step()
            return statement.int(at: 0) == 1
        }
        let writer = try SQLitePostWriter(
            connection: connection,
            searchIndex: keepsSearchIndex && !isBulkLoad ? searchIndex : nil
        )
        var summary = WriteSummary()
        // Checked for repeats after the stream: sorting once costs less than a hash-table lookup per post.
        var upserted: [Int] = []
        upserted.reserveCapacity(changes.upserts.count)
        func upsert(_ posts: [Post]) throws {
            for post in posts {
                upserted.append(post.id)
                if changes.deletions.contains(post.id) {
                    throw PostStoreError(
                        .constraintViolation,
                        "Post \(post.id) is both upserted (position \(upserted.count - 1)) and deleted in one batch."
                    )
                }
                if isBulkLoad {
                    do {
                        if writing { try writer.insert(post) }
                    } catch let error as SQLiteError where error.primaryCode == SQLITE_CONSTRAINT {
                        // A repeated id, found by the table before the check after the stream: name it the same way.
                        _ = try Self.checkUnique(upserted)
                        throw error
                    }
                    summary.inserted += 1
                    continue
                }
                switch try writer.upsert(post, writing: writing) {
                case .inserted: summary.inserted += 1
                case .updated: summary.updated += 1
                case .unchanged: summary.unchanged += 1
                }
            }
        }
        try upsert(changes.upserts)
        while let batch = try reader.nextBatch() {
            try upsert(batch)
        }
        let sortedIds = try Self.checkUnique(upserted)
        let deleted = try changes.deletedIds(
            // Counted only when something may be deleted: the posts before this change set's inserts (made only
            // when writing).
            storedCount: changes.prune || !changes.deletions.isEmpty
                ? try storedCount() - (writing ? summary.inserted : 0) : 0,
            storedIds: storedIds,
            isStored: { id throws(SQLiteError) in try storedPost(id: id) != nil },
            isUpserted: { sortedIds.containsSorted($0) }
        )
        summary.deleted = deleted.count
        if writing {
            for id in deleted {
                // Present: the transaction began before `deletedIds` looked.
                try delete(storedPost(id: id)!)
            }
            if isBulkLoad, keepsSearchIndex, summary.inserted > 0 {
                try searchIndex.rebuild()
            }
        }
        return summary
    }

    /// The upserted ids, sorted, once none repeats: the check ``PostChangeSet/validate()`` makes of a change set's
    /// own upserts, for the stream's posts too.
    ///
    /// - Throws: ``PostStoreError/Code/constraintViolation`` naming the first repeat in the upserts' order.
    private static func checkUnique(_ ids: [Int]) throws -> [Int] {
        let sorted = ids.sorted()
        if let (position, _) = ids.firstRepeat(sorted: sorted) {
            throw PostStoreError(
                .constraintViolation,
                "Two posts in one batch have the same id \(ids[position]) (the second at position \(position))."
            )
        }
        return sorted
    }

    private func storedCount() throws(SQLiteError) -> Int {
        try connection.withStatement("SELECT count(*) FROM posts") { statement throws(SQLiteError) in
            _ = try statement.step()
            return statement.int(at: 0)
        }
    }

    private func storedIds() throws(SQLiteError) -> [Int] {
        try connection.withStatement("SELECT id FROM posts") { statement throws(SQLiteError) in
            try statement.rows { $0.int(at: 0) }
        }
    }

    /// Rebuilds a stale search index before a write of a store that keeps it, so the write's own index changes
    /// apply to a current index. (A store that does not keep it marks it stale at the end of a write that changed
    /// posts.)
    private func rebuildSearchIndexIfStaleAndKept() throws(SQLiteError) {
        if keepsSearchIndex, try !searchIndex.isCurrent() {
            try searchIndex.rebuild()
        }
    }

    private func run(_ plan: SQLiteQueryPlan) throws(SQLiteError) -> [Post] {
        try connection.withStatement(plan.sql) { statement throws(SQLiteError) in
            for (offset, value) in plan.arguments.enumerated() {
                try value.bind(to: statement, at: Int32(offset + 1))
            }
            return try statement.rows(Self.readPost)
        }
    }

    private func storedPost(id: Int) throws(SQLiteError) -> Post? {
        try connection.withStatement("SELECT id, user_id, title, body FROM posts WHERE id = ?") {
            statement throws(SQLiteError) in
            try statement.bind(id, at: 1)
            return try statement.step() ? Self.readPost(statement) : nil
        }
    }

    private func delete(_ stored: Post) throws(SQLiteError) {
        try connection.withStatement("DELETE FROM posts WHERE id = ?") { statement throws(SQLiteError) in
            try statement.bind(stored.id)
            try statement.run()
        }
        if keepsSearchIndex { try searchIndex.remove(stored) }
    }

    private func save(_ state: SyncState) throws(SQLiteError) {
        try connection.withStatement(
            """
            INSERT OR REPLACE INTO sync_state
                (source, etag, synced_at_ms, fetched, inserted, updated, unchanged, deleted)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
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
                state.deleted
            )
            try statement.run()
        }
    }

    /// The latest sync time of any source but `source` (compared byte for byte, as SQLite's default collation does).
    private func latestSyncedAt(otherThan source: String) throws(SQLiteError) -> Int64? {
        let latest = "SELECT synced_at_ms FROM sync_state WHERE source <> ? ORDER BY synced_at_ms DESC LIMIT 1"
        return try connection.withStatement(latest) { statement throws(SQLiteError) in
            try statement.bind(source)
            return try statement.step() ? Int64(statement.int(at: 0)) : nil
        }
    }

    private func storedETag(for source: String) throws(SQLiteError) -> String? {
        try connection.withStatement("SELECT etag FROM sync_state WHERE source = ?") { statement throws(SQLiteError) in
            try statement.bind(source)
            return try statement.step() ? statement.optionalText(at: 0) : nil
        }
    }

    private static let selectSyncState = """
        SELECT source, etag, synced_at_ms, fetched, inserted, updated, unchanged, deleted FROM sync_state
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
        return state
    }

    private static func readPost(_ row: SQLiteStatement) -> Post {
        Post(userId: row.int(at: 1), id: row.int(at: 0), title: row.text(at: 2), body: row.text(at: 3))
    }

    /// Runs `body` in a write transaction, refusing a store whose file was deleted while open and healing a search
    /// index that disagrees with the posts.
    ///
    /// The index can disagree only when another tool wrote the posts table; FTS5 then reports `SQLITE_CORRUPT_VTAB`
    /// when PostStore removes text that was never indexed. The write is rolled back, the index rebuilt from the
    /// posts in its own transaction, and the write tried once more.
    private func write<Result>(_ body: () throws -> Result) async throws -> Result {
        do {
            do {
                return try await transaction(body)
            } catch let error as SQLiteError where error.isCorruptVirtualTable {
                try await transaction { try searchIndex.rebuild() }
                return try await transaction(body)
            }
        } catch let error as SQLiteError {
            throw error.postStoreError(path: path)
        }
    }

    /// Waits for the write lock, then runs `body` and commits, all without suspending: no other call on this actor
    /// can slip a statement into the transaction.
    ///
    /// The store is checked under the write lock, just before the commit: a store deleted at any moment before is
    /// refused and the write rolled back.
    private func transaction<Result>(_ body: () throws -> Result) async throws -> Result {
        try await beginWriteTransaction()
        do {
            let result = try body()
            try refuseIfMoved(nothingWritten: true)
            try connection.execute("COMMIT")
            return result
        } catch {
            connection.rollBackOpenTransaction()
            throw error
        }
    }

    /// Takes the database's write lock (`BEGIN IMMEDIATE`), waiting up to the busy timeout for another connection
    /// to release it.
    ///
    /// The wait suspends between tries (1 ms, doubling up to 50 ms) instead of blocking inside SQLite, so a store
    /// waiting for another process never holds up a thread of Swift's shared pool: with two cores, two such waits
    /// could otherwise stall every task of the process, including the one that would release the lock.
    private func beginWriteTransaction() async throws {
        let deadline = clock.uptime() + busyTimeout
        var pause = Duration.milliseconds(1)
        while try !connection.tryBeginWriteTransaction() {
            let now = clock.uptime()
            guard now < deadline else {
                throw SQLiteError(extendedCode: SQLITE_BUSY, message: "database is locked")
            }
            try await clock.sleep(for: min(pause, deadline - now))
            pause = min(pause * 2, .milliseconds(50))
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
    private func read<Result>(_ body: () throws -> Result) throws -> Result {
        let now = ContinuousClock.now
        if hasMoved || fileLastFoundInPlace.map({ now - $0 >= movedCheckInterval }) ?? true {
            try refuseIfMoved(nothingWritten: false)
            fileLastFoundInPlace = now
        }
        return try sqlite(body)
    }

    private func refuseIfMoved(nothingWritten: Bool) throws {
        guard hasMoved || connection.fileHasMoved() else { return }
        hasMoved = true
        let consequence = nothingWritten ? "; nothing was written" : ""
        throw PostStoreError(
            .storeNotFound,
            "The SQLite store \(path) was deleted or moved while it was open\(consequence). Open it again.",
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

extension SQLitePostStore: StoreDescribing {
    /// The post count and the sync states from one read transaction, then the schema version.
    package func describe() throws -> StoreDescription {
        let (count, syncStates) = try read {
            try connection.readTransaction { (try storedCount(), try storedSyncStates()) }
        }
        return StoreDescription(
            count: count,
            syncStates: syncStates,
            formatVersion: try Self.schemaStatus(ofStoreAt: path).version
        )
    }
}
