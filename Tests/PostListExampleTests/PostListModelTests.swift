import Foundation
import Observation
import PostListExample
import PostStore
import PostStoreContainer
import PostStoreTesting
import Testing

/// How an embedder tests a feature built on PostStore: an in-memory store or a spy, a stub source and a test
/// clock — no files, no network — and each test reads given / when / then.
@MainActor
@Suite struct PostListModelTests {
    @Test func startingShowsTheStoredPostsInIdOrder() async throws {
        // Given a store with three posts
        let store = InMemoryPostStore(posts: SamplePosts.make(count: 3).reversed())
        let model = PostListModel(store: store, sync: Self.sync(from: StubPostDataService(), into: store))

        // When the screen starts
        model.start()
        defer { model.stop() }

        // Then it shows them in id order
        try await until(model) { model.status == .loaded }
        #expect(model.posts.map(\.id) == [1, 2, 3])
    }

    @Test func aSyncInTheBackgroundUpdatesTheListAndTheLastSyncedTime() async throws {
        // Given a started screen over an empty store, and a source with ten posts
        let store = InMemoryPostStore()
        let clock = TestClock()
        let sync = SyncService(
            dataService: StubPostDataService(posts: SamplePosts.make(count: 10)),
            store: store,
            clock: clock
        )
        let model = PostListModel(store: store, sync: sync)
        model.start()
        defer { model.stop() }
        try await until(model) { model.status == .loaded }
        #expect(model.posts.isEmpty && model.lastSyncedAt == nil)

        // When a sync runs in the background, not through the model
        _ = try await Task.detached { try await sync.sync() }.value

        // Then the screen shows the ten posts and the time of that sync, without being asked to reload
        try await until(model) { model.posts.count == 10 && model.lastSyncedAt != nil }
        #expect(model.posts.map(\.id) == Array(1...10))
        #expect(model.lastSyncedAt == clock.now(), "the test clock's time, at which the sync ran")
    }

    @Test func searchingShowsOnlyMatchingPosts() async throws {
        // Given posts of which one mentions "quokka"
        let quokka = Post(userId: 1, id: 99, title: "The Quokka", body: "smiles")
        let store = InMemoryPostStore(posts: SamplePosts.make(count: 5) + [quokka])
        let model = PostListModel(store: store, sync: Self.sync(from: StubPostDataService(), into: store))
        model.start()
        defer { model.stop() }

        // When the user searches for it in lowercase
        model.search("quokka")

        // Then only that post is shown, and the search text is kept
        try await until(model) { model.posts == [quokka] }
        #expect(model.searchText == "quokka")
    }

    @Test func refreshingSyncsNewPostsAndShowsThem() async throws {
        // Given an empty store and a source with ten posts
        let store = InMemoryPostStore()
        let source = StubPostDataService(posts: SamplePosts.make(count: 10))
        let model = PostListModel(store: store, sync: Self.sync(from: source, into: store))
        model.start()
        defer { model.stop() }

        // When the user refreshes
        await model.refresh()

        // Then the ten posts are stored and shown, and the refresh says what it did
        try await until(model) { model.posts.count == 10 }
        #expect(model.lastRefresh?.inserted == 10)
        #expect(source.fetchCount == 1)
    }

    @Test func aFailedRefreshKeepsThePostsAndSaysWhy() async throws {
        // Given a started screen and a source that is down
        let store = SpyPostStore(posts: SamplePosts.make(count: 4))
        let source = StubPostDataService()
        source.fail(with: PostStoreError(.sourceUnavailable, "The server is down."))
        let sync = SyncService(dataService: source, store: store, clock: TestClock())
        let model = PostListModel(store: store, sync: sync)
        model.start()
        defer { model.stop() }
        try await until(model) { model.status == .loaded }

        // When the user refreshes
        await model.refresh()

        // Then the posts stay, the message is shown, and nothing was written
        #expect(model.posts.count == 4)
        #expect(model.status == .failed("The server is down."))
        #expect(await store.applyCallCount == 0)
    }

    @Test func aStoreThatFailsToReadIsShownAsAFailure() async throws {
        // Given a store that cannot be read
        let store = SpyPostStore(posts: SamplePosts.make(count: 4))
        await store.fail(.query, with: PostStoreError(.storeBusy, "The store is busy."))
        let model = PostListModel(store: store, sync: Self.sync(from: StubPostDataService(), into: store))

        // When the screen starts
        model.start()
        defer { model.stop() }

        // Then it says so, and asked once
        try await until(model) { model.status == .failed("The store is busy.") }
        #expect(await store.queryCallCount == 1)
    }

    @Test func theModelCanBeBuiltFromTheCurrentContainerWithTestOverrides() async throws {
        // Given a container whose store and source are overridden for this test only
        let store = InMemoryPostStore()
        let source = StubPostDataService(posts: SamplePosts.make(count: 2))

        let model = try await withDependencies {
            $0.register(store, for: (any PostStoreProtocol).self)
            $0.register(Self.sync(from: source, into: store), for: SyncService.self)
        } operation: {
            // When the model is made inside the scope
            try PostListModel()
        }
        model.start()
        defer { model.stop() }
        await model.refresh()

        // Then it works on the overrides
        try await until(model) { model.posts.map(\.id) == [1, 2] }
        #expect(try await store.count() == 2)
    }

    @Test func aSlowEarlierSearchDoesNotOverwriteALaterOne() async throws {
        // Given a store where the search for "apple" is slow
        let apple = Post(userId: 1, id: 1, title: "Apple pie", body: "")
        let banana = Post(userId: 1, id: 2, title: "Banana split", body: "")
        let store = GatedPostStore(posts: [apple, banana], slowSearch: "apple")
        let model = PostListModel(store: store, sync: Self.sync(from: StubPostDataService(), into: store))
        model.start()
        defer { model.stop() }
        try await until(model) { model.status == .loaded }

        // When the user searches "apple", then "banana" before the first answer arrives
        model.search("apple")
        await store.waitUntilTheSlowSearchStarted()
        model.search("banana")
        try await until(model) { model.posts == [banana] }
        await store.releaseTheSlowSearch()
        await store.waitUntilTheSlowSearchAnswered()

        // Then the screen shows the answer to "banana", even after the slow answer came
        await Task.yield()
        #expect(model.searchText == "banana")
        #expect(model.posts == [banana])
    }

    /// A sync service over test doubles: the stub source, the store, a test clock and a silent logger.
    private static func sync(from source: StubPostDataService, into store: any PostStoreProtocol) -> SyncService {
        SyncService(
            dataService: source,
            store: store,
            clock: TestClock()
        )
    }
}

/// A store whose answer to one search waits until the test releases it; everything else is an in-memory store.
private actor GatedPostStore: PostStoreProtocol {
    private let store: InMemoryPostStore
    private let slowSearch: String
    private var started: CheckedContinuation<Void, Never>?
    private var hasStarted = false
    private var gate: CheckedContinuation<Void, Never>?
    private var answered: CheckedContinuation<Void, Never>?
    private var hasAnswered = false

    init(posts: [Post], slowSearch: String) {
        store = InMemoryPostStore(posts: posts)
        self.slowSearch = slowSearch
    }

    func waitUntilTheSlowSearchStarted() async {
        if hasStarted { return }
        await withCheckedContinuation { started = $0 }
    }

    func releaseTheSlowSearch() {
        gate?.resume()
        gate = nil
    }

    func waitUntilTheSlowSearchAnswered() async {
        if hasAnswered { return }
        await withCheckedContinuation { answered = $0 }
    }

    func query(_ query: PostQuery) async throws -> [Post] {
        if query.search == slowSearch, !hasStarted {
            hasStarted = true
            await withCheckedContinuation { continuation in
                gate = continuation
                started?.resume()
                started = nil
            }
            defer {
                hasAnswered = true
                answered?.resume()
            }
            return try await store.query(query)
        }
        return try await store.query(query)
    }

    func apply(_ changes: PostChangeSet) async throws -> WriteSummary { try await store.apply(changes) }
    func preview(_ changes: PostChangeSet) async throws -> WriteSummary { try await store.preview(changes) }
    func post(id: Int) async throws -> Post? { try await store.post(id: id) }
    func count() async throws -> Int { try await store.count() }
    func removeAll() async throws { try await store.removeAll() }
    func syncState(for source: String) async throws -> SyncState? { try await store.syncState(for: source) }
    func syncStates() async throws -> [SyncState] { try await store.syncStates() }
}

/// Waits until `condition` holds, reading it again each time a property of the model that it reads changes (the
/// Observation framework's tracking): no polling, and no change missed between a look and the wait. Gives up with
/// an issue after a minute.
@MainActor
private func until(
    _ model: PostListModel,
    _ condition: @escaping @MainActor () -> Bool,
    sourceLocation: SourceLocation = #_sourceLocation
) async throws {
    let deadline = ContinuousClock.now + .seconds(60)
    while !condition() {
        guard ContinuousClock.now < deadline else {
            Issue.record("The model never reached the state waited for.", sourceLocation: sourceLocation)
            return
        }
        let (changes, changed) = AsyncStream.makeStream(of: Void.self)
        // The condition is read again as the tracking begins: a change between the loop's look and here is seen.
        let holds = withObservationTracking {
            condition()
        } onChange: {
            changed.finish()
        }
        if holds { return }
        let timer = Task {
            try? await Task.sleep(until: deadline, clock: .continuous)
            changed.finish()
        }
        for await _ in changes {}
        timer.cancel()
    }
}
