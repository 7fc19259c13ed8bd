import Foundation
@_spi(FileSystem) import PostStore
import PostStoreJSONFile
import PostStoreSQLite
import PostStoreTestSupport
import PostStoreTesting
import Testing

/// What the file-backed engines share: opening (never creating, never waiting for a lock, and refusing a path with a
/// NUL character, as the file data service does), and a lock timeout measured on the injected clock. Waiting for
/// another process's lock, timing out and cancelling a waiting write are part of the contract suite
/// (`PostStoreContract`), which every engine runs in `EngineContractTests`.
@Suite("File-backed stores")
struct FileStoreTests {
    static let kinds = StoreKind.allCases.filter(\.engine.storesInFile)

    @Test("opening an existing store never creates one", arguments: kinds)
    func openExistingDoesNotCreate(kind: StoreKind) throws {
        let directory = try TemporaryDirectory()
        let error = #expect(throws: PostStoreError.self) { try kind.reopen(in: directory) }
        #expect(error?.code == .storeNotFound)
        #expect(error?.path == kind.file(in: directory))
        #expect(try directory.entries() == [])
    }

    @Test("a lock timeout is measured on the injected clock: 10 minutes pass without waiting", arguments: kinds)
    func lockTimeoutOnTheInjectedClock(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        _ = try kind.makeStore(in: directory)
        let clock = TestClock()
        let path = kind.file(in: directory)
        let store: any PostStoreProtocol =
            kind == .json
            ? try JSONFilePostStore(
                path: path,
                mode: .openExisting,
                lockTimeout: .seconds(600),
                fileSystem: localFileSystem,
                clock: clock
            )
            : try SQLitePostStore(
                path: path,
                mode: .openExisting,
                busyTimeout: .seconds(600),
                searchIndex: kind == .sqlite,
                clock: clock
            )
        let release = try await kind.holdWriteLock(in: directory)
        let start = ContinuousClock.now

        let error = await #expect(throws: PostStoreError.self) { try await store.upsert(SamplePosts.make(count: 1)) }
        try await release()

        #expect(error?.code == .storeBusy)
        #expect(clock.sleeps.reduce(.zero, +) == .seconds(600))
        // Waiting for real would take ten minutes; the bound leaves room for a loaded machine and a sanitizer.
        #expect(ContinuousClock.now - start < hangLimit, "no real waiting")
    }

    @Test("opening a new JSON store while another process holds its lock does not wait; the first write creates it")
    func openingDoesNotWaitForTheLock() async throws {
        let directory = try TemporaryDirectory()
        let release = try await StoreKind.json.holdWriteLock(in: directory)
        let path = StoreKind.json.file(in: directory)

        let store = try JSONFilePostStore(path: path, lockTimeout: .seconds(5))
        #expect(try await store.count() == 0)
        #expect(!FileManager.default.fileExists(atPath: path))

        try await release()
        #expect(try await store.upsert(SamplePosts.make(count: 2)) == WriteSummary(inserted: 2))
        #expect(try await JSONFilePostStore(path: path, mode: .openExisting).count() == 2)
    }

    @Test func aPathWithANULCharacterIsRefusedEverywhere() async throws {
        let path = "posts.sqlite\u{0}.bak"
        let clock = TestClock()
        let refusals: [PostStoreError?] = [
            #expect(throws: PostStoreError.self) {
                try SQLitePostStore(
                    path: path,
                    mode: .createIfMissing,
                    busyTimeout: .seconds(1),
                    searchIndex: true,
                    clock: clock
                )
            },
            #expect(throws: PostStoreError.self) {
                try JSONFilePostStore(
                    path: path,
                    mode: .createIfMissing,
                    lockTimeout: .seconds(1),
                    fileSystem: localFileSystem,
                    clock: clock
                )
            },
            #expect(throws: PostStoreError.self) { try SQLitePostStore.schemaStatus(ofStoreAt: path) },
            await #expect(throws: PostStoreError.self) {
                try await FilePostDataService(path: path, fileSystem: localFileSystem).streamPosts(PostFetchRequest())
            },
        ]

        for refusal in refusals {
            #expect(refusal?.code == .invalidArgument)
            #expect(refusal?.message.contains("contains a NUL character") == true, "\(String(describing: refusal))")
        }
        #expect(!FileManager.default.fileExists(atPath: "posts.sqlite"))
    }
}
