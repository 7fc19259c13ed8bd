import Foundation
import PostStoreLive
import PostStoreTestSupport
import PostStoreTesting
import Testing

@_spi(FileSystem) @testable import PostStore
@testable import PostStoreHTTP
@testable import PostStoreJSONFile
@testable import PostStoreSQLite

/// What the file-backed engines share: opening, and waiting for another process's lock.
@Suite("File-backed stores")
struct FileStoreTests {
    static let kinds = StoreKind.allCases.filter(\.isPersistent)

    @Test("opening an existing store never creates one", arguments: kinds)
    func openExistingDoesNotCreate(kind: StoreKind) throws {
        let directory = try TemporaryDirectory()
        let error = #expect(throws: PostStoreError.self) { try kind.reopen(in: directory) }
        #expect(error?.code == .storeNotFound)
        #expect(error?.path == kind.file(in: directory))
        #expect(try directory.entries() == [])
    }

    @Test("a write waits for another process's lock, then succeeds", arguments: kinds)
    func waitsForALock(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try kind.makeStore(in: directory)
        let release = try kind.holdWriteLock(in: directory)
        let start = ContinuousClock.now
        let writer = Task { try await store.upsert(SamplePosts.make(count: 2)) }
        // A real lock held for a real time: the writer must still be waiting when it is released.
        try await Task.sleep(for: .milliseconds(300))
        try release()
        #expect(try await writer.value == WriteSummary(inserted: 2))
        #expect(ContinuousClock.now - start >= .milliseconds(300))
        #expect(try await store.count() == 2)
    }

    @Test("a lock held past the timeout is reported as a busy store, and nothing is written", arguments: kinds)
    func lockTimeout(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try kind.makeStore(in: directory, timeout: .milliseconds(100))
        let release = try kind.holdWriteLock(in: directory)
        let error = await #expect(throws: PostStoreError.self) { try await store.upsert(SamplePosts.make(count: 2)) }
        #expect(error?.code == .storeBusy)
        try release()
        #expect(try await store.count() == 0)
        #expect(try await store.upsert(SamplePosts.make(count: 1)) == WriteSummary(inserted: 1))
    }

    @Test("writers waiting for a lock leave Swift's threads free for the task that releases it", arguments: kinds)
    func waitingWritersDoNotStarveThePool(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        // Waits that blocked their threads (six writers, two threads on this machine) would hold the release back
        // until a writer gave up after this timeout, and that writer would fail with `storeBusy`. The verdict is the
        // writers' results, not the time taken: other suites may keep the pool's threads busy for seconds at once,
        // several times longer under a sanitizer, but not for this long.
        let stores = try (0..<6).map { _ in try kind.makeStore(in: directory, timeout: .seconds(90)) }
        let release = try kind.holdWriteLock(in: directory)
        let writers = stores.enumerated().map { offset, store in
            Task { try await store.upsert(SamplePosts.make(count: 1, firstId: offset + 1)) }
        }
        try await Task.sleep(for: .milliseconds(100))
        try release()
        for writer in writers { #expect(try await writer.value == WriteSummary(inserted: 1)) }
        #expect(try await stores[0].count() == 6)
    }

    @Test("a lock timeout is measured on the injected clock: 10 minutes pass without waiting", arguments: kinds)
    func lockTimeoutOnTheInjectedClock(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        _ = try kind.makeStore(in: directory)
        let clock = TestClock()
        let path = kind.file(in: directory)
        let store: any PostStoreProtocol =
            kind == .jsonFile
            ? try JSONFilePostStore(
                path: path,
                mode: .openExisting,
                lockTimeout: .seconds(600),
                fileSystem: LocalFileSystem(),
                clock: clock
            )
            : try SQLitePostStore(
                path: path,
                mode: .openExisting,
                busyTimeout: .seconds(600),
                searchIndex: kind == .sqlite,
                clock: clock
            )
        let release = try kind.holdWriteLock(in: directory)
        defer { try? release() }
        let start = ContinuousClock.now

        let error = await #expect(throws: PostStoreError.self) { try await store.upsert(SamplePosts.make(count: 1)) }

        #expect(error?.code == .storeBusy)
        #expect(clock.sleeps.reduce(.zero, +) == .seconds(600))
        // Waiting for real would take ten minutes; the bound leaves room for a loaded machine and a sanitizer.
        #expect(ContinuousClock.now - start < .seconds(120), "no real waiting")
    }

    @Test("opening a new JSON store while another process holds its lock does not wait; the first write creates it")
    func openingDoesNotWaitForTheLock() async throws {
        let directory = try TemporaryDirectory()
        let release = try StoreKind.jsonFile.holdWriteLock(in: directory)
        let path = StoreKind.jsonFile.file(in: directory)

        let store = try JSONFilePostStore(path: path, lockTimeout: .seconds(5))
        #expect(try await store.count() == 0)
        #expect(!FileManager.default.fileExists(atPath: path))

        try release()
        #expect(try await store.upsert(SamplePosts.make(count: 2)) == WriteSummary(inserted: 2))
        #expect(try await JSONFilePostStore(path: path, mode: .openExisting).count() == 2)
    }
}
