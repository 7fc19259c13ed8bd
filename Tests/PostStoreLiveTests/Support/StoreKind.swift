import Foundation
import PostStore
import PostStoreConformance
import PostStoreEngines
import PostStoreJSONFile
import PostStoreLive
import PostStorePostgres
import PostStoreTestSupport
import Testing

@testable import PostStoreSQLite

/// Every engine and engine configuration, so one test runs against each: `@Test(arguments: StoreKind.allCases)`.
///
/// The engines are those of the composition root's table, ``StoreEngine/all``, opened as the table opens them, plus
/// the SQLite engine without its search index: an engine added to the table is a kind, and runs every test written
/// over `allCases` (the contract suite among them), with no change here.
struct StoreKind: Hashable, CustomTestStringConvertible, Sendable {
    /// The kind's name: the engine's scheme, or the configuration's name.
    let name: String
    /// The engine, as the table declares it.
    let engine: StoreEngine
    /// Opens a store of this kind; the engine's own `open` unless the kind configures it otherwise.
    private let openStore: @Sendable (_ path: String?, _ options: StoreOpenOptions) throws -> any PostStoreProtocol

    /// A kind for an engine of the table, opened as the table opens it.
    init(_ engine: StoreEngine) {
        self.init(name: engine.scheme, engine: engine, open: engine.open)
    }

    private init(
        name: String,
        engine: StoreEngine,
        open: @escaping @Sendable (_ path: String?, _ options: StoreOpenOptions) throws -> any PostStoreProtocol
    ) {
        self.name = name
        self.engine = engine
        openStore = open
    }

    /// Every engine of the table, and the configurations of an engine worth a run of their own; an engine whose
    /// stores are on a server only when the tests have one (see ``PostgresTestServer``).
    static let allCases: [StoreKind] =
        StoreEngine.all.filter { $0.locationKind != .serverURL || PostgresTestURL.base != nil }
        .map(StoreKind.init) + [.sqliteWithoutSearchIndex]

    static let memory = StoreKind(.memory)
    static let json = StoreKind(.json)
    static let sqlite = StoreKind(.sqlite)
    /// SQLite without its text-search index: searches scan every post, and must answer the same.
    static let sqliteWithoutSearchIndex = StoreKind(name: "sqliteWithoutSearchIndex", engine: .sqlite) {
        path,
        options in
        try SQLitePostStore(
            path: path ?? "",
            mode: options.mode,
            busyTimeout: options.lockTimeout,
            searchIndex: false,
            clock: try options.clock()
        )
    }

    var testDescription: String { name }

    static func == (left: StoreKind, right: StoreKind) -> Bool { left.name == right.name }

    func hash(into hasher: inout Hasher) { hasher.combine(name) }

    /// Whether the engine keeps its data where a second instance can open it: a file, or a server.
    var isPersistent: Bool { engine.locationKind != .none }

    /// Whether the engine's stores are on a database server.
    var isOnServer: Bool { engine.locationKind == .serverURL }

    /// A new, empty store of this kind in `directory`, with its data file named `name`.
    ///
    /// - Parameter timeout: How long a write waits for another process's lock (the lock or busy timeout).
    func makeStore(
        in directory: TemporaryDirectory,
        name: String = "store",
        timeout: Duration = .seconds(30)
    ) throws -> any PostStoreProtocol {
        try open(in: directory, name: name, mode: .createIfMissing, timeout: timeout)
    }

    /// The store's data file, for the persistent kinds: `name` with the engine's first file extension; for a
    /// server's kind, its URL, with a schema named after the folder and `name`.
    func file(in directory: TemporaryDirectory, name: String = "store") -> String {
        if isOnServer { return PostgresTestURL.url(schema: schema(in: directory, name: name)) }
        return directory.file(name + "." + (engine.fileExtensions.first ?? ""))
    }

    /// The schema of a server kind's store: named after the folder (unique) and `name`, within PostgreSQL's 63 bytes.
    func schema(in directory: TemporaryDirectory, name: String = "store") -> String {
        let folder = directory.path.split(separator: "/").last ?? ""
        let letters = { (text: Substring) in text.lowercased().filter { $0.isLetter || $0.isNumber } }
        return "t_\(letters(folder).suffix(24))_\(letters(Substring(name)).prefix(24))"
    }

    /// Another instance on the same data (a second process would see the same), or `nil` for in-memory stores.
    ///
    /// - Parameter timeout: How long a write waits for another process's lock.
    func reopen(
        in directory: TemporaryDirectory,
        name: String = "store",
        timeout: Duration = .seconds(30)
    ) throws -> (any PostStoreProtocol)? {
        guard isPersistent else { return nil }
        return try open(in: directory, name: name, mode: .openExisting, timeout: timeout)
    }

    private func open(
        in directory: TemporaryDirectory,
        name: String,
        mode: StoreOpenMode,
        timeout: Duration
    ) throws -> any PostStoreProtocol {
        try openStore(
            isPersistent ? file(in: directory, name: name) : nil,
            StoreOpenOptions(mode: mode, lockTimeout: timeout, clock: SystemClock(), fileSystem: localFileSystem)
        )
    }

    /// Takes the store's write lock as another process would, and returns what releases it.
    ///
    /// - Throws: ``NoWriteLockHolder`` for an engine without an entry in ``writeLockHolders``.
    func holdWriteLock(
        in directory: TemporaryDirectory,
        name: String = "store"
    ) async throws -> @Sendable () async throws -> Void {
        if isOnServer { return try await PostgresTestServer.holdWriteLock(schema: schema(in: directory, name: name)) }
        guard let hold = Self.writeLockHolders[engine] else { throw NoWriteLockHolder(engine: engine) }
        let release = HeldWriteLock(release: try hold(file(in: directory, name: name)))
        return { try release.release() }
    }

    /// How another process takes each file engine's write lock, given the store's file: the engine-specific part of
    /// the lock tests. An engine without an entry skips them (the contract suite reports them as skipped).
    static let writeLockHolders: [StoreEngine: @Sendable (_ file: String) throws -> () throws -> Void] = [
        .json: holdJSONFileLock,
        .sqlite: holdSQLiteLock,
    ]

    /// The bytes of the store's files by path: the data file and, when there is one, its write-ahead log (SQLite's
    /// `-wal`); for a store on a server its rows' versions (``PostgresTestServer/storedRows(schema:)``); none for
    /// memory. Tests compare them before and after to prove that nothing was written.
    func storedFiles(in directory: TemporaryDirectory, name: String = "store") async throws -> [String: Data] {
        if isOnServer { return try await PostgresTestServer.storedRows(schema: schema(in: directory, name: name)) }
        guard isPersistent else { return [:] }
        let file = file(in: directory, name: name)
        var files: [String: Data] = [:]
        for path in [file, file + "-wal"] {
            files[path] = FileManager.default.contents(atPath: path)
        }
        return files
    }
}

/// Takes a JSON store's write lock as another process would: the lock file's `flock`.
private func holdJSONFileLock(_ file: String) throws -> () throws -> Void {
    let descriptor = open(file + ".lock", O_RDWR | O_CREAT, 0o644)
    guard descriptor >= 0, flock(descriptor, LOCK_EX) == 0 else { throw SystemError(code: errno) }
    return { close(descriptor) }
}

/// Takes a SQLite store's write lock as another process would: a write transaction of another connection.
private func holdSQLiteLock(_ file: String) throws -> () throws -> Void {
    let blocker = try SQLiteConnection(path: file, create: false, busyTimeout: .seconds(1))
    try blocker.execute("BEGIN IMMEDIATE")
    return { try blocker.execute("COMMIT") }
}

/// The error of ``StoreKind/holdWriteLock(in:name:)`` for an engine whose lock the tests cannot take.
struct NoWriteLockHolder: Error, CustomStringConvertible {
    let engine: StoreEngine

    var description: String { "The tests know no way to hold the \(engine) engine's write lock." }
}

/// The contract suite's view of a kind: a new temporary folder per check, the store's file in it.
extension StoreKind: ContractSubject {
    func makeLocation() throws -> TemporaryDirectory { try TemporaryDirectory() }

    func makeStore(
        at directory: TemporaryDirectory,
        options: ContractStoreOptions
    ) async throws -> any PostStoreProtocol {
        let store = try makeStore(in: directory, timeout: options.lockTimeout)
        // A store on a server is made on its first call; a second instance opened before would find none.
        try await (store as? PostgresPostStore)?.migrate()
        return store
    }

    func reopenStore(
        at directory: TemporaryDirectory,
        options: ContractStoreOptions
    ) throws -> (any PostStoreProtocol)? {
        try reopen(in: directory, timeout: options.lockTimeout)
    }

    func holdWriteLock(at directory: TemporaryDirectory) async throws -> ContractWriteLock? {
        guard isOnServer || Self.writeLockHolders[engine] != nil else { return nil }
        return ContractWriteLock(release: try await holdWriteLock(in: directory))
    }

    func storedFiles(at directory: TemporaryDirectory) async throws -> [String: Data]? {
        isPersistent ? try await storedFiles(in: directory) : nil
    }

    /// The PostgreSQL engine's text cannot hold a NUL character; every other engine keeps any text.
    var keepsNULCharacters: Bool { !isOnServer }

    func removeStores(at directory: TemporaryDirectory) async throws {
        if isOnServer { try await PostgresTestServer.dropSchema(schema(in: directory)) }
        guard isPersistent, !isOnServer else { return }
        let file = file(in: directory)
        for path in [file, file + "-wal", file + "-shm", file + ".lock"]
        where FileManager.default.fileExists(atPath: path) {
            try FileManager.default.removeItem(atPath: path)
        }
    }
}

/// A held lock's release for the contract suite.
// @unchecked: the release runs once, on the task of the check that took the lock and after it took it, so the
// connection or descriptor it closes over is never used from two places at once.
private struct HeldWriteLock: @unchecked Sendable {
    let release: () throws -> Void
}

/// Runs `body` with a new, empty store of `kind` that lives in a temporary folder for the whole call.
func withStore(
    _ kind: StoreKind,
    _ body: (any PostStoreProtocol, TemporaryDirectory) async throws -> Void
) async throws {
    let directory = try TemporaryDirectory()
    defer { directory.keepAlive() }
    try await body(try kind.makeStore(in: directory), directory)
    // A store on a server outlives the folder: its schema goes too.
    try await kind.removeStores(at: directory)
}

extension TemporaryDirectory {
    /// Marks the last use of the folder, so it is not deleted while a store in it is still in use.
    func keepAlive() { _ = path }
}
