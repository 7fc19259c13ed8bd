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
    @Test("more reads than the cooperative pool has threads run at once, each on a reader of its own")
    func readsRunAtOnceOffThePool() async throws {
        let directory = try TemporaryDirectory()
        // One more than the pool's threads (one a core): if reads ran on the pool, at most that many could be in
        // SQLite at once, and the last read could never join the others.
        let count = ProcessInfo.processInfo.activeProcessorCount + 1
        let store = try Self.store(in: directory, readers: count)
        _ = try await store.upsert(SamplePosts.make(count: 10))
        let gate = ThreadGate()
        let allMet = try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<count {
                group.addTask {
                    try await store.read { tables in
                        _ = try tables.storedCount()
                        return gate.arriveAndWait(forAll: count)
                    }
                }
            }
            return try await group.reduce(true) { $0 && $1 }
        }
        #expect(allMet, "only \(gate.arrived) of \(count) reads ran at once")
    }

    @Test("a read answers from the last commit while a write is inside its transaction")
    func readDuringAWrite() async throws {
        let directory = try TemporaryDirectory()
        let store = try SQLitePostStore(path: directory.file("posts.sqlite"))
        let before = Post(userId: 1, id: 1, title: "before", body: "")
        _ = try await store.upsert([before])
        let release = ThreadGate()
        let (inTransaction, entered) = AsyncStream.makeStream(of: Void.self)
        let write = Task {
            try await store.write { tables in
                try tables.connection.execute("UPDATE posts SET title = 'after' WHERE id = 1")
                entered.yield()
                return release.waitUntilOpen()
            }
        }
        for await _ in inTransaction { break }
        let seen = try await store.post(id: 1)
        let count = try await store.count()
        release.open()
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
        let fastDone = ThreadGate()
        let (slowStarted, started) = AsyncStream.makeStream(of: Void.self)
        let slow = Task {
            try await store.read { tables in
                _ = try tables.storedCount()
                started.yield()
                return fastDone.waitUntilOpen()
            }
        }
        for await _ in slowStarted { break }
        let post = try await store.post(id: 3)
        fastDone.open()
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

    @Test("a reader opened after the store's file was replaced refuses the other file")
    func aReaderRefusesAReplacedFile() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("posts.sqlite")
        let store = try SQLitePostStore(path: path)
        _ = try await store.upsert([Post(userId: 1, id: 1, title: "mine", body: "")])
        // Another store, closed, then put where the first one's file was: the first has read nothing yet, so its
        // first reader opens the path now.
        let other = directory.file("other.sqlite")
        do {
            let replacement = try SQLitePostStore(path: other)
            _ = try await replacement.upsert([Post(userId: 2, id: 1, title: "not mine", body: "")])
        }
        #expect(rename(path, directory.file("moved.sqlite")) == 0 && rename(other, path) == 0)
        let error = await #expect(throws: PostStoreError.self) { try await store.post(id: 1) }
        #expect(error?.code == .storeNotFound, "\(String(describing: error))")
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
}
