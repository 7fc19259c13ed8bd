import Foundation
import PostStore
import PostStoreTesting
import Synchronization
import Testing

/// ``SyncService`` with a source that has a changes feed, on in-memory stores: checkpoints, another sync moving one,
/// must-refetch, and following with its retries.
@Suite struct SyncByChangesTests {
    private let posts = SamplePosts.make(count: 20)

    @Test func aSyncThatFindsItsCheckpointMovedGoesOnFromTheNewOne() async throws {
        let origin = InMemoryPostStore(posts: posts)
        let source = StubPostChangesSource(serving: origin)
        let replica = InMemoryPostStore()
        let sync = SyncService(dataService: source, store: replica, clock: TestClock())
        try await sync.sync()
        try await origin.upsert([Post(userId: 1, id: 2, title: "moved", body: "on")])
        // Another sync of the same source commits while this one is between its read and its write.
        let other = SyncService(dataService: StubPostChangesSource(serving: origin), store: replica, clock: TestClock())
        let once = Mutex(false)
        source.beforeAnswering { _ in
            let isFirst = once.withLock { done in
                defer { done = true }
                return !done
            }
            guard isFirst else { return }
            try await other.sync()
        }
        let report = try await sync.sync()
        #expect(report.byChanges && report.fetched == 0, "the other sync brought the change: \(report)")
        #expect(source.requestedTokens.count == 3, "the whole copy, the first try, and the try from the new checkpoint")
        #expect(try await replica.query(.all) == (try await origin.query(.all)))
    }

    @Test func aSourceThatMustRefetchIsCopiedWholeAndTheReportSaysWhy() async throws {
        let origin = InMemoryPostStore(posts: posts)
        let replica = InMemoryPostStore()
        try await SyncService(dataService: StubPostChangesSource(serving: origin), store: replica, clock: TestClock())
            .sync()
        let rebuilt = InMemoryPostStore(posts: Array(posts.prefix(15)))
        let source = StubPostChangesSource(serving: rebuilt)
        let report = try await SyncService(dataService: source, store: replica, clock: TestClock()).sync(
            SyncOptions(prune: true)
        )
        #expect(!report.byChanges && report.deleted == 5 && report.refetchReason?.contains("another store") == true)
        #expect(report.changeToken == (await rebuilt.changeToken()))
        #expect(try await replica.query(.all) == Array(posts.prefix(15)))
    }

    @Test func aDryRunPreviewsTheChangesAndWritesNothing() async throws {
        let origin = InMemoryPostStore(posts: posts)
        let source = StubPostChangesSource(serving: origin)
        let replica = InMemoryPostStore()
        try await SyncService(dataService: source, store: replica, clock: TestClock()).sync()
        try await origin.delete(ids: [1, 2])
        let before = try await replica.syncStates()
        let preview = try await SyncService(dataService: source, store: replica, clock: TestClock()).sync(
            SyncOptions(prune: true, dryRun: true)
        )
        #expect(preview.byChanges && preview.deleted == 2 && preview.dryRun)
        let after = try await replica.syncStates()
        #expect(try await replica.count() == 20 && after == before)
    }

    @Test func aFollowerWaitsOutAnUnreachableSourceWithPausesThatDouble() async throws {
        let origin = InMemoryPostStore(posts: posts)
        let source = StubPostChangesSource(serving: origin)
        let clock = TestClock()
        let replica = InMemoryPostStore()
        let retries = Mutex<[Duration]>([])
        let offline = PostStoreError(.sourceUnavailable, "offline")
        source.fail(with: offline, offline, offline)
        var reports = SyncService(dataService: source, store: replica, clock: clock).follow(wait: .seconds(60)) {
            if case .retrying(_, let delay, _) = $0 { retries.withLock { $0.append(delay) } }
        }.makeAsyncIterator()
        let first = try #require(try await reports.next())
        #expect(first.fetched == 20)
        #expect(retries.withLock { $0 } == [.milliseconds(100), .milliseconds(200), .milliseconds(400)])
        #expect(clock.sleeps == [.milliseconds(100), .milliseconds(200), .milliseconds(400)])
        try await origin.delete(ids: [5])
        let next = try #require(try await reports.next())
        #expect(next.byChanges && next.deletionsKept == 1)
    }

    @Test func aFollowerOfASourceWithoutAFeedEndsWithOneLine() async throws {
        let follow = SyncService(dataService: StubPostDataService(), store: InMemoryPostStore(), clock: TestClock())
            .follow()
        let error = await #expect(throws: PostStoreError.self) {
            for try await _ in follow {}
        }
        #expect(error?.code == .invalidArgument && error?.message.contains("offers no changes feed") == true)
    }

    @Test func aFollowerRefusesASourceThatAnswersWithoutAFeedBeforeItWrites() async throws {
        let replica = InMemoryPostStore()
        // A source that could have a feed (an http(s) URL) but answers a whole copy without one.
        let source = WholeCopyOnlyDataService(StubPostDataService(posts: posts))
        let follow = SyncService(dataService: source, store: replica, clock: TestClock()).follow()
        let error = await #expect(throws: PostStoreError.self) {
            for try await _ in follow {}
        }
        #expect(error?.code == .invalidArgument && error?.message.contains("offers no changes feed") == true)
        #expect(try await replica.count() == 0)
        #expect(try await replica.syncStates().isEmpty)
    }

    @Test func aFollowerAsksAtMostOnceASecondWhileNothingChangesAndRecordsNoEmptyAnswer() async throws {
        let origin = InMemoryPostStore(posts: posts)
        let source = StubPostChangesSource(serving: origin)
        let clock = TestClock()
        let replica = InMemoryPostStore()
        let (polls, poll) = AsyncStream.makeStream(of: Void.self)
        source.beforeAnswering { request in
            if request.since != nil { poll.yield() }
        }
        // A source that answers "no change" at once: a wait of zero.
        var reports = SyncService(dataService: source, store: replica, clock: clock).follow(wait: .zero)
            .makeAsyncIterator()
        _ = try #require(try await reports.next())
        let recorded = try await replica.syncStates()
        var asked = polls.makeAsyncIterator()
        for _ in 0..<4 { await asked.next() }
        #expect(clock.sleeps.prefix(3) == [.seconds(1), .seconds(1), .seconds(1)])
        #expect(try await replica.syncStates() == recorded)
        try await origin.delete(ids: [5])
        let next = try #require(try await reports.next())
        #expect(next.byChanges && next.deletionsKept == 1)
        #expect(try await replica.syncStates() != recorded)
    }

    @Test func aFollowerThatContinuesASyncFirstAsksForTheNextChangeAndWaitsForIt() async throws {
        let origin = InMemoryPostStore(posts: posts)
        let source = StubPostChangesSource(serving: origin)
        let replica = InMemoryPostStore()
        let service = SyncService(dataService: source, store: replica, clock: TestClock())
        let first = try await service.sync()
        let token = try #require(first.changeToken)
        let asked = LockedState<[(since: ChangeToken?, wait: Duration)]>([])
        source.beforeAnswering { request in asked.withLock { $0.append((request.since, request.wait)) } }
        var reports = service.follow(continuingFrom: first, wait: .seconds(600)).makeAsyncIterator()
        try await origin.delete(ids: [5])
        let next = try #require(try await reports.next())
        // No sync of its own first: the first request asked for the changes since the report's token, held.
        let firstAsked = try #require(asked.withLock { $0.first })
        #expect(firstAsked.since == token && firstAsked.wait == .seconds(600))
        #expect(next.byChanges && next.deletionsKept == 1)
    }

    @Test func aFollowerCannotContinueASyncFromASourceWithoutAFeed() async throws {
        let replica = InMemoryPostStore()
        let service = SyncService(dataService: StubPostDataService(posts: posts), store: replica, clock: TestClock())
        let first = try await service.sync()
        #expect(first.changeToken == nil)
        let error = await #expect(throws: PostStoreError.self) {
            for try await _ in service.follow(continuingFrom: first) {}
        }
        #expect(error?.code == .invalidArgument && error?.message.contains("offers no changes feed") == true)
    }

    @Test func aFollowerEndsWhenItsTaskIsCancelled() async throws {
        let origin = InMemoryPostStore(posts: posts)
        let service = SyncService(
            dataService: StubPostChangesSource(serving: origin),
            store: InMemoryPostStore(),
            clock: TestClock()
        )
        let started = AsyncStream<Void>.makeStream()
        let following = Task {
            var count = 0
            for try await _ in service.follow(wait: .seconds(600)) {
                count += 1
                started.continuation.yield()
            }
            return count
        }
        var iterator = started.stream.makeAsyncIterator()
        await iterator.next()
        following.cancel()
        #expect(try await following.value == 1)
    }
}

/// A source that could have a changes feed (it answers feed requests) but answers every one with a whole copy and
/// no feed, as a server without one does.
private struct WholeCopyOnlyDataService: PostChangesSource {
    let wrapped: StubPostDataService

    init(_ wrapped: StubPostDataService) { self.wrapped = wrapped }

    var source: String { wrapped.source }

    func streamPosts(_ request: PostFetchRequest) async throws -> PostStreamResult {
        try await wrapped.streamPosts(request)
    }

    func fetchChanges(_ request: PostChangesRequest) async throws -> PostChangesResult {
        .withoutFeed(try await wrapped.streamPosts(PostFetchRequest(etag: request.etag, progress: request.progress)))
    }
}
