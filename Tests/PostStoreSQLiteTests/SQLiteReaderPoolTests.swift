import Foundation
import PostStore
import PostStoreTestSupport
import PostStoreTesting
import Testing

@testable import PostStoreSQLite

/// The store's connections run on queues of their own: reads beside each other and beside a write, none of them on
/// Swift's cooperative pool.
@Suite("SQLite readers")
struct SQLiteReaderPoolTests {
    /// How long a blocked connection waits for the others before the test gives up: reached only when the test
    /// fails (the connections then never all run at once), so that a failure is reported instead of hanging.
    static let giveUpAfter = Duration.seconds(30)

    @Test("more reads than the cooperative pool has threads run at once, each on a reader of its own")
    func readsRunAtOnceOffThePool() async throws {
        let directory = try TemporaryDirectory()
        // One more than the pool's threads (one a core): if reads ran on the pool, at most that many could be in
        // SQLite at once, and the last read could never join the others.
        let count = ProcessInfo.processInfo.activeProcessorCount + 1
        let store = try Self.store(in: directory, readers: count)
        _ = try await store.upsert(SamplePosts.make(count: 10))
        let arrived = LockedState(0)
        let allMet = try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<count {
                group.addTask {
                    try await store.read { tables in
                        _ = try tables.storedCount()
                        arrived.withLock { $0 += 1 }
                        return Self.blockUntil { arrived.withLock { $0 } == count }
                    }
                }
            }
            return try await group.reduce(true) { $0 && $1 }
        }
        #expect(allMet, "only \(arrived.withLock { $0 }) of \(count) reads ran at once")
    }

    @Test("a read answers from the last commit while a write is inside its transaction")
    func readDuringAWrite() async throws {
        let directory = try TemporaryDirectory()
        let store = try SQLitePostStore(path: directory.file("posts.sqlite"))
        let before = Post(userId: 1, id: 1, title: "before", body: "")
        _ = try await store.upsert([before])
        let released = LockedState(false)
        let (inTransaction, entered) = AsyncStream.makeStream(of: Void.self)
        let write = Task {
            try await store.write { tables in
                try tables.connection.execute("UPDATE posts SET title = 'after' WHERE id = 1")
                entered.yield()
                return Self.blockUntil { released.withLock { $0 } }
            }
        }
        for await _ in inTransaction { break }
        let seen = try await store.post(id: 1)
        let count = try await store.count()
        released.withLock { $0 = true }
        #expect(try await write.value, "the write was not released in time")
        #expect(seen == before)
        #expect(count == 1)
        #expect(try await store.post(id: 1)?.title == "after")
    }

    @Test("a slow read does not hold up a fast one")
    func slowReadBesideAFastOne() async throws {
        let directory = try TemporaryDirectory()
        let store = try SQLitePostStore(path: directory.file("posts.sqlite"))
        _ = try await store.upsert(SamplePosts.make(count: 10))
        let fastDone = LockedState(false)
        let (slowStarted, started) = AsyncStream.makeStream(of: Void.self)
        let slow = Task {
            try await store.read { tables in
                _ = try tables.storedCount()
                started.yield()
                return Self.blockUntil { fastDone.withLock { $0 } }
            }
        }
        for await _ in slowStarted { break }
        let post = try await store.post(id: 3)
        fastDone.withLock { $0 = true }
        #expect(post?.id == 3)
        #expect(try await slow.value, "the fast read waited for the slow one")
    }

    @Test("a pool of one reader queues reads and serves each")
    func oneReaderServesQueuedReads() async throws {
        let directory = try TemporaryDirectory()
        let store = try Self.store(in: directory, readers: 1)
        _ = try await store.upsert(SamplePosts.make(count: 50))
        let found = try await withThrowingTaskGroup(of: Int?.self) { group in
            for id in 1...50 { group.addTask { try await store.post(id: id)?.id } }
            return try await group.reduce(into: [Int]()) { if let id = $1 { $0.append(id) } }
        }
        #expect(found.sorted() == Array(1...50))
    }

    /// A new store in `directory` with at most `readers` reader connections.
    static func store(in directory: TemporaryDirectory, readers: Int) throws -> SQLitePostStore {
        try SQLitePostStore(
            path: directory.file("posts.sqlite"),
            mode: .createIfMissing,
            busyTimeout: .seconds(5),
            searchIndex: true,
            clock: SystemClock(),
            readers: readers
        )
    }

    /// Blocks the calling thread (a connection's own) until `condition` holds, looking every millisecond.
    ///
    /// - Returns: Whether it held before ``giveUpAfter``.
    static func blockUntil(_ condition: () -> Bool) -> Bool {
        let deadline = ContinuousClock.now + giveUpAfter
        while !condition() {
            guard ContinuousClock.now < deadline else { return false }
            usleep(1000)
        }
        return true
    }
}
