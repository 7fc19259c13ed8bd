import Foundation
import PostStoreLive
import PostStoreTestSupport
import Testing

@_spi(FileSystem) @testable import PostStore
@testable import PostStoreHTTP
@testable import PostStoreJSONFile
@testable import PostStoreSQLite

/// Every engine and engine configuration, so one test runs against each: `@Test(arguments: StoreKind.allCases)`.
enum StoreKind: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case inMemory
    case jsonFile
    case sqlite
    case sqliteWithoutSearchIndex

    var testDescription: String { rawValue }

    /// Whether the engine keeps its data in a file that a second instance can open.
    var isPersistent: Bool { self != .inMemory }

    /// A new, empty store of this kind in `directory`, with its data file named `name`.
    ///
    /// - Parameter timeout: How long a write waits for another process's lock (the lock or busy timeout).
    func makeStore(
        in directory: TemporaryDirectory,
        name: String = "store",
        timeout: Duration = .seconds(30)
    ) throws -> any PostStoreProtocol {
        switch self {
        case .inMemory: InMemoryPostStore()
        case .jsonFile: try JSONFilePostStore(path: file(in: directory, name: name), lockTimeout: timeout)
        case .sqlite: try SQLitePostStore(path: file(in: directory, name: name), busyTimeout: timeout)
        case .sqliteWithoutSearchIndex:
            try SQLitePostStore(path: file(in: directory, name: name), busyTimeout: timeout, searchIndex: false)
        }
    }

    /// The store's data file, for the persistent kinds.
    func file(in directory: TemporaryDirectory, name: String = "store") -> String {
        directory.file(name + (self == .jsonFile ? ".json" : ".sqlite"))
    }

    /// Takes the store's write lock as another process would (the lock file's `flock`, or SQLite's write lock), and
    /// returns what releases it.
    func holdWriteLock(in directory: TemporaryDirectory, name: String = "store") throws -> () throws -> Void {
        switch self {
        case .inMemory:
            return {}
        case .jsonFile:
            let descriptor = open(file(in: directory, name: name) + ".lock", O_RDWR | O_CREAT, 0o644)
            guard descriptor >= 0, flock(descriptor, LOCK_EX) == 0 else { throw SystemError(code: errno) }
            return { close(descriptor) }
        case .sqlite, .sqliteWithoutSearchIndex:
            let blocker = try SQLiteConnection(
                path: file(in: directory, name: name),
                create: false,
                busyTimeout: .seconds(1)
            )
            try blocker.execute("BEGIN IMMEDIATE")
            return { try blocker.execute("COMMIT") }
        }
    }

    /// Another instance on the same data (a second process would see the same), or `nil` for in-memory stores.
    func reopen(in directory: TemporaryDirectory, name: String = "store") throws -> (any PostStoreProtocol)? {
        switch self {
        case .inMemory: nil
        case .jsonFile: try JSONFilePostStore(path: directory.file(name + ".json"), mode: .openExisting)
        case .sqlite: try SQLitePostStore(path: directory.file(name + ".sqlite"), mode: .openExisting)
        case .sqliteWithoutSearchIndex:
            try SQLitePostStore(path: directory.file(name + ".sqlite"), mode: .openExisting, searchIndex: false)
        }
    }
}

/// Runs `body` with a new, empty store of `kind` that lives in a temporary folder for the whole call.
func withStore(
    _ kind: StoreKind,
    _ body: (any PostStoreProtocol, TemporaryDirectory) async throws -> Void
) async throws {
    let directory = try TemporaryDirectory()
    defer { directory.keepAlive() }
    try await body(try kind.makeStore(in: directory), directory)
}

extension TemporaryDirectory {
    /// Marks the last use of the folder, so it is not deleted while a store in it is still in use.
    func keepAlive() { _ = path }
}

/// Everything a store holds, for "the store is exactly as it was" checks.
struct StoreSnapshot: Equatable {
    let posts: [Post]
    let syncStates: [SyncState]

    init(of store: any PostStoreProtocol) async throws {
        posts = try await store.query(.all)
        syncStates = try await store.syncStates()
    }
}

extension StoreKind {
    /// The bytes of the store's files by path: the data file and, for SQLite, its write-ahead log when there is
    /// one; none for memory. Tests compare them before and after to prove that nothing was written.
    func storedFiles(in directory: TemporaryDirectory, name: String = "store") -> [String: Data] {
        guard isPersistent else { return [:] }
        let file = file(in: directory, name: name)
        var files: [String: Data] = [:]
        for path in [file, file + "-wal"] {
            files[path] = FileManager.default.contents(atPath: path)
        }
        return files
    }
}
