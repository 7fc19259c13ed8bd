import Foundation
import PostStore
import PostStoreJSONFile
import PostStoreSQLite
import PostStoreTestSupport
import PostStoreTesting
import PostgresNIO
import Testing

@testable import PostStorePostgres

/// What observation does beyond the contract's rules (`ContractCheck+Observation`): it skips the writes that the
/// changes feed shows cannot matter, a sync that writes nothing wakes no observer of posts, a store deleted under
/// its observers ends them with `storeNotFound`, and a PostgreSQL listener whose connection is cut listens again.
@Suite struct ObservationTests {
    @Test("a query's observer reads again only for writes that could change its result")
    func writesThatCannotMatterAreSkipped() async throws {
        let store = SpyPostStore(posts: SamplePosts.make(count: 20))
        var results = store.observe(PostQuery(userIds: [1])).makeAsyncIterator()
        #expect(try await results.next()?.count == 10)
        let waiting = Task { [results] in
            var results = results
            return try await results.next()
        }
        await store.sharedWatcher.waiters(atLeast: 1)
        for id in 11...20 { try await store.upsert([Post(userId: 2, id: id, title: "user 2's", body: "b")]) }
        try await store.delete(ids: [15, 99])
        try await store.upsert([Post(userId: 1, id: 1, title: "edited", body: "b")])
        #expect(try await waiting.value?.first?.title == "edited")
        #expect(await store.queryCallCount == 2, "the first result and user 1's write; none for user 2's 11 writes")
    }

    @Test("a post's observer reads it again only for writes to it")
    func writesToOtherPostsAreSkipped() async throws {
        let store = SpyPostStore(posts: SamplePosts.make(count: 5))
        var post = store.observePost(id: 3).makeAsyncIterator()
        #expect(try await post.next()??.id == 3)
        let waiting = Task { [post] in
            var post = post
            return try await post.next()
        }
        await store.sharedWatcher.waiters(atLeast: 1)
        for id in [1, 2, 4, 5] { try await store.upsert([Post(userId: 1, id: id, title: "another", body: "b")]) }
        try await store.delete(ids: [3])
        #expect(try await waiting.value == .some(nil))
        #expect(await store.callCount(.post) == 2, "the post at first and its deletion; none for the 4 others")
    }

    @Test("a sync that changes no post wakes no observer of posts; the sync states' observer sees it")
    func aSyncThatWritesNothingWakesNoPostObserver() async throws {
        let store = SpyPostStore()
        let sync = SyncService(dataService: StubPostDataService(), store: store, clock: TestClock())
        try await sync.sync()
        var results = store.observe(PostQuery()).makeAsyncIterator()
        var states = store.observeSyncStates().makeAsyncIterator()
        #expect(try await results.next()?.count == 10)
        let before = try #require(try await states.next())
        let waiting = Task { [results] in
            var results = results
            return try await results.next()
        }
        await store.sharedWatcher.waiters(atLeast: 1)
        let report = try await sync.sync()
        #expect(report.inserted + report.updated + report.deleted == 0)
        // The states' observer shares the watcher: once it has the new state, the watcher has read the store
        // after the sync, and answered every waiter that it concerns.
        #expect(try await states.next() != before)
        #expect(await store.queryCallCount == 1, "no query ran again")
        waiting.cancel()
        #expect(try await waiting.value == nil)
    }

    static let fileKinds: [(name: String, open: @Sendable (String) throws -> any PostStoreProtocol)] = [
        ("posts.sqlite", { try SQLitePostStore(path: $0) }),
        ("posts.json", { try JSONFilePostStore(path: $0) }),
    ]

    @Test("a store in a file deleted under its observer ends the observation with storeNotFound", arguments: [0, 1])
    func aDeletedStoreEndsTheObservation(kind: Int) async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file(Self.fileKinds[kind].name)
        let store = try Self.fileKinds[kind].open(path)
        try await store.upsert(SamplePosts.make(count: 3))
        var results = store.observe(PostQuery()).makeAsyncIterator()
        #expect(try await results.next()?.count == 3)
        try FileManager.default.removeItem(atPath: path)
        let error = await #expect(throws: PostStoreError.self) { _ = try await results.next() }
        #expect(error?.code == .storeNotFound, "\(String(describing: error))")
        #expect(try await results.next() == nil)
    }
}

/// A PostgreSQL store whose server cannot be reached ends its observation with `storeUnavailable`, after the
/// store's retries; no server is needed.
@Suite struct UnreachableObservationTests {
    @Test func anObservationOfAStoreNobodyAnswersEndsWithStoreUnavailable() async throws {
        // Port 9 (discard) on the loopback: nothing listens, so every connection is refused at once.
        let store = PostgresPostStore(location: try PostgresStoreLocation(url: "postgres://nobody@127.0.0.1:9/none"))
        var results = store.observe(PostQuery()).makeAsyncIterator()
        let error = await #expect(throws: PostStoreError.self) { _ = try await results.next() }
        #expect(error?.code == .storeUnavailable, "\(String(describing: error))")
        #expect(try await results.next() == nil)
    }
}

/// The PostgreSQL engine's listener: a notification sent while nobody listens is lost, so a cut connection is
/// listened on again and the store read again.
@Suite(.enabled(if: PostgresTestURL.base != nil, "\(PostgresTestURL.howToEnable)"))
struct PostgresObservationTests {
    @Test func aListenerWhoseConnectionIsCutListensAgainAndMissesNothing() async throws {
        let schema = PostgresTestURL.uniqueSchema()
        let location = try PostgresStoreLocation(url: PostgresTestURL.url(schema: schema))
        let store = PostgresPostStore(location: location)
        let writer = PostgresPostStore(location: location)
        defer { Task { try? await PostgresTestServer.dropSchema(schema) } }
        try await store.migrate()
        var results = store.observe(PostQuery()).makeAsyncIterator()
        #expect(try await results.next() == [])
        let listening = "LISTEN \"\(PostgresNames(schema: schema).changesChannel)\";"
        let waiting = Task { [results] in
            var results = results
            return try await results.next()
        }
        // The listener's connection shows its last statement; cut it, then write while it may be listening again.
        let deadline = ContinuousClock.now + hangLimit
        var cut = false
        while !cut, ContinuousClock.now < deadline {
            cut = try await PostgresTestServer.withConnection { connection in
                let rows = try await connection.query(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query = \(listening)",
                    logger: Logger(label: "test")
                )
                var terminated = false
                for try await (done) in rows.decode(Bool.self) { terminated = terminated || done }
                return terminated
            }
            if !cut { try await Task.sleep(for: .milliseconds(10)) }
        }
        #expect(cut, "the listener's connection was found")
        let post = Post(userId: 1, id: 1, title: "written while the listener was cut", body: "b")
        try await writer.upsert([post])
        #expect(try await waiting.value == [post])
    }
}
