import Foundation
import PostStore
import PostStoreConformance
import PostStoreTestSupport
import PostStoreTesting
import Synchronization
import Testing

/// Sync scenarios, each run on every engine with a stub data service and a test clock. What a sync reports (progress,
/// the report, the log) is checked once, on the in-memory engine, in the core's `SyncReportingTests`.
@Suite struct SyncServiceTests {
    @Test(arguments: StoreKind.allCases)
    func firstSyncInsertsEveryPostAndRecordsTheSync(_ kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let source = StubPostDataService(posts: SamplePosts.make(count: 100), etag: "\"v1\"")
            let clock = TestClock()
            let report = try await Self.service(source, store, clock: clock).sync()

            #expect(report.summary == WriteSummary(inserted: 100))
            #expect((report.fetched, report.pages, report.notModified, report.dryRun) == (100, 1, false, false))
            #expect(try await store.query(.all) == SamplePosts.make(count: 100))
            let state = try #require(try await store.syncState(for: source.source))
            #expect(
                state
                    == SyncState(
                        source: source.source,
                        etag: "\"v1\"",
                        syncedAt: clock.now(),
                        fetched: 100,
                        inserted: 100
                    )
            )
        }
    }

    @Test(arguments: StoreKind.allCases)
    func unchangedResyncWritesNoPost(_ kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let (source, service) = try await Self.syncedOnce(100, into: store)

            let report = try await service.sync()

            #expect(report.summary == WriteSummary(unchanged: 100))
            #expect(!report.summary.changedAnything)
            #expect(try await store.syncState(for: source.source)?.unchanged == 100)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func tenPercentChangedUpdatesOnlyThose(_ kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            var posts = SamplePosts.make(count: 100)
            let source = StubPostDataService(posts: posts)
            let service = Self.service(source, store)
            try await service.sync()
            for index in stride(from: 0, to: 100, by: 10) {
                posts[index].body += " (edited)"
            }
            source.serve(posts)

            let report = try await service.sync()

            #expect(report.summary == WriteSummary(updated: 10, unchanged: 90))
            #expect(try await store.query(.all) == posts)
        }
    }

    @Test(arguments: StoreKind.allCases, [false, true])
    func newAndRemovedPostsWithAndWithoutPrune(_ kind: StoreKind, prune: Bool) async throws {
        try await withStore(kind) { store, _ in
            let (source, service) = try await Self.syncedOnce(100, into: store)
            // Posts 91…100 are gone from the source and 101…110 are new.
            let current = SamplePosts.make(count: 90) + SamplePosts.make(count: 10, firstId: 101)
            source.serve(current)

            let report = try await service.sync(SyncOptions(prune: prune))

            #expect(report.summary == WriteSummary(inserted: 10, unchanged: 90, deleted: prune ? 10 : 0))
            let expected = prune ? current : SamplePosts.make(count: 110)
            #expect(try await store.query(.all) == expected)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func dryRunReportsWhatASyncWouldDoAndWritesNothing(_ kind: StoreKind) async throws {
        try await withStore(kind) { store, directory in
            let (source, service) = try await Self.syncedOnce(100, into: store)
            var changed = SamplePosts.make(count: 80) + SamplePosts.make(count: 5, firstId: 201)
            changed[0].title = "changed"
            source.serve(changed, etag: "\"v2\"")
            let before = try await StoredBytes(of: store, kind, in: directory)

            let preview = try await service.sync(SyncOptions(prune: true, dryRun: true))

            #expect(preview.dryRun)
            #expect(preview.summary == WriteSummary(inserted: 5, updated: 1, unchanged: 79, deleted: 20))
            #expect(try await StoredBytes(of: store, kind, in: directory) == before)
            let real = try await service.sync(SyncOptions(prune: true))
            #expect(real.summary == preview.summary)
            #expect(try await store.syncState(for: source.source)?.etag == "\"v2\"")
        }
    }

    @Test(arguments: StoreKind.allCases, [0, 40])
    func aPruneOverTheDeletionLimitIsRefused(_ kind: StoreKind, remaining: Int) async throws {
        try await withStore(kind) { store, directory in
            let (source, service) = try await Self.syncedOnce(100, into: store)
            // An empty answer, or one cut to 40 posts: pruning would delete 100% or 60%, over the 50% default.
            source.serve(SamplePosts.make(count: remaining))
            let before = try await StoredBytes(of: store, kind, in: directory)

            let error = await #expect(throws: PostStoreError.self) {
                try await service.sync(SyncOptions(prune: true))
            }

            #expect(error?.code == .tooManyDeletions)
            #expect(error?.message.contains("Prune refused: stub://posts sent \(remaining) posts.") == true)
            #expect(error?.message.contains("Deleting \(100 - remaining) of the 100 stored posts") == true)
            #expect(try await StoredBytes(of: store, kind, in: directory) == before)
            // A dry run applies the same deletion limit, so it predicts the refusal.
            let dryRunError = await #expect(throws: PostStoreError.self) {
                try await service.sync(SyncOptions(prune: true, dryRun: true))
            }
            #expect(dryRunError?.code == .tooManyDeletions)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aPruneWithinTheDeletionLimitOrUnlimitedGoesThrough(_ kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let (source, service) = try await Self.syncedOnce(100, into: store)

            source.serve(SamplePosts.make(count: 50))
            #expect(try await service.sync(SyncOptions(prune: true)).deleted == 50)

            source.serve(SamplePosts.make(count: 45))
            await #expect(throws: PostStoreError.self) {
                try await service.sync(SyncOptions(prune: true, deletionLimit: .share(0.05)))
            }
            #expect(try await service.sync(SyncOptions(prune: true, deletionLimit: .share(0.1))).deleted == 5)

            source.serve([])
            #expect(try await service.sync(SyncOptions(prune: true, deletionLimit: .unlimited)).deleted == 45)
            #expect(try await store.count() == 0)
        }
    }

    @Test(arguments: StoreKind.allCases, [PostStoreError.Code.invalidData, .sourceUnavailable, .sourceNotFound])
    func aFailingSourceLeavesTheStoreAsItWas(_ kind: StoreKind, code: PostStoreError.Code) async throws {
        try await withStore(kind) { store, directory in
            let source = StubPostDataService(posts: SamplePosts.make(count: 20))
            let service = Self.service(source, store)
            try await service.sync()
            source.answer(.failure(PostStoreError(code, "Injected.")))
            let before = try await StoredBytes(of: store, kind, in: directory)

            let error = await #expect(throws: PostStoreError.self) {
                try await service.sync(SyncOptions(prune: true, deletionLimit: .unlimited))
            }

            #expect(error?.code == code)
            #expect(try await StoredBytes(of: store, kind, in: directory) == before)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func theRememberedETagMakesAnUnchangedSourceANoOp(_ kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let source = StubPostDataService(posts: SamplePosts.make(count: 10), etag: "W/\"abc\"")
            let clock = TestClock()
            let service = Self.service(source, store, clock: clock)
            try await service.sync()
            source.answer(.notModified)
            clock.advance(by: .seconds(60))

            let report = try await service.sync()

            #expect(report.notModified)
            #expect(report.summary == WriteSummary() && report.fetched == 0)
            #expect(source.requestedETags == [nil, "W/\"abc\""])
            let state = try #require(try await store.syncState(for: source.source))
            #expect(state.etag == "W/\"abc\"" && state.syncedAt == clock.now())
            #expect(try await store.count() == 10)

            try await service.sync(SyncOptions(usesETag: false))
            #expect(source.requestedETags.last == .some(nil))
        }
    }

    /// An ETag that differs from the remembered one only in Unicode normalization is another ETag: the store saves
    /// it, and the next sync sends it back byte for byte.
    @Test(arguments: StoreKind.allCases)
    func anETagDifferingOnlyInNormalizationIsSentBackExactly(_ kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let composed = "\"caf\u{E9}\""
            let decomposed = "\"cafe\u{301}\""
            let source = StubPostDataService(posts: SamplePosts.make(count: 10), etag: "\"v0\"")
            // The clock stands still, so the two unchanged re-syncs save states that differ only in their ETags.
            let service = Self.service(source, store)
            try await service.sync()
            source.serve(SamplePosts.make(count: 10), etag: composed)
            try await service.sync()
            source.serve(SamplePosts.make(count: 10), etag: decomposed)
            try await service.sync()
            try await service.sync()

            #expect(
                source.requestedETags.map { $0.map { Array($0.utf8) } }
                    == [nil, Array("\"v0\"".utf8), Array(composed.utf8), Array(decomposed.utf8)]
            )
        }
    }

    /// The store changed after the sync that got the ETag (another source pruned it, the app deleted a post): the
    /// next sync must download again, not trust a 304 for posts the store no longer holds.
    @Test(arguments: StoreKind.allCases)
    func anETagIsNotSentOnceTheStoreChangedSinceItsSync(_ kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let web = StubPostDataService(
                source: "https://example.com/posts",
                posts: SamplePosts.make(count: 10),
                etag: "\"v1\""
            )
            let file = StubPostDataService(source: "empty.json", posts: [])
            let syncWeb = Self.service(web, store)
            try await syncWeb.sync()
            try await syncWeb.sync()
            #expect(web.requestedETags == [nil, "\"v1\""], "an unchanged re-sync keeps the ETag")

            try await Self.service(file, store)
                .sync(SyncOptions(prune: true, deletionLimit: .unlimited))
            let report = try await syncWeb.sync()

            #expect(web.requestedETags.last == .some(nil))
            #expect(!report.notModified && report.inserted == 10)
            #expect(try await store.count() == 10)
        }
    }

    /// Another writer changes the store while the source is asked (and answers 304): the old ETag must not be
    /// saved again, or the next 304 would vouch for posts the store no longer holds.
    @Test(arguments: StoreKind.allCases)
    func a304DoesNotRestoreAnETagThatAConcurrentWriteCleared(_ kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let source = StubPostDataService(posts: SamplePosts.make(count: 10), etag: "\"v1\"")
            try await Self.service(source, store).sync()
            let racing = ConcurrentWriteDataService(source: source.source) {
                try await store.delete(ids: [1, 2])
            }

            let report = try await Self.service(racing, store)
                .sync()

            #expect(report.notModified)
            #expect(racing.requestedETag == "\"v1\"")
            #expect(try await store.syncState(for: source.source)?.etag == nil)
        }
    }

    /// The last sync did not prune, so the store holds a post the source lacks: a prune must download and delete
    /// it, not accept a 304; once the store holds exactly the source's posts, the ETag is sent again.
    @Test(arguments: StoreKind.allCases)
    func aPruneIsNotSkippedByA304WhileTheStoreHoldsOtherPosts(_ kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            _ = try await store.upsert([Post(userId: 9, id: 999, title: "local", body: "")])
            let source = StubPostDataService(posts: SamplePosts.make(count: 10), etag: "\"v1\"", honoursETag: true)
            let service = Self.service(source, store)
            try await service.sync()

            let prune = try await service.sync(SyncOptions(prune: true))
            #expect(!prune.notModified && prune.deleted == 1)
            #expect(try await store.post(id: 999) == nil)

            let again = try await service.sync(SyncOptions(prune: true))
            #expect(again.notModified && again.pages == 1)
            #expect(source.requestedETags == [nil, nil, "\"v1\""])
            let state = try #require(try await store.syncState(for: source.source))
            #expect((state.etag, state.fetched, state.deleted) == ("\"v1\"", 10, 1), "a 304 keeps the counts")
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aDryRunRecordsNoSyncState(_ kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let source = StubPostDataService(posts: SamplePosts.make(count: 10), etag: "\"v1\"")
            let service = Self.service(source, store)

            let report = try await service.sync(SyncOptions(dryRun: true))

            #expect(report.summary == WriteSummary(inserted: 10))
            #expect(try await store.syncStates().isEmpty)
            #expect(try await store.count() == 0)
        }
    }

    /// Two stores on one file — as two processes would have — sync different sources at once, pruning: the store
    /// must end holding exactly one source's posts, never a mixture.
    @Test(arguments: [StoreKind.json, .sqlite])
    func concurrentSyncsIntoOneFileEndInOneSourcesState(_ kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let first = Array(SamplePosts.make(count: 300).prefix(200))
        var second = Array(SamplePosts.make(count: 300).suffix(200))
        for index in second.indices { second[index].title += " (second)" }
        let options = SyncOptions(prune: true, deletionLimit: .unlimited)
        for _ in 0..<5 {
            let storeA = try kind.makeStore(in: directory)
            let storeB = try kind.makeStore(in: directory)
            let syncA = SyncService(
                dataService: StubPostDataService(source: "a", posts: first),
                store: storeA,
                clock: SystemClock()
            )
            let syncB = SyncService(
                dataService: StubPostDataService(source: "b", posts: second),
                store: storeB,
                clock: SystemClock()
            )
            async let reportA = syncA.sync(options)
            async let reportB = syncB.sync(options)
            _ = try await (reportA, reportB)

            let final = try await kind.makeStore(in: directory).query(.all)
            #expect(final == first || final == second)
        }
    }
}

extension SyncServiceTests {
    /// A sync service from `source` into `store`, on a test clock, logging nothing.
    fileprivate static func service(
        _ source: any PostDataService,
        _ store: any PostStoreProtocol,
        clock: TestClock = TestClock()
    ) -> SyncService {
        SyncService(dataService: source, store: store, clock: clock)
    }

    /// A stub source of `count` sample posts, and a service that has synced it into `store` once.
    fileprivate static func syncedOnce(
        _ count: Int,
        into store: any PostStoreProtocol
    ) async throws -> (source: StubPostDataService, service: SyncService) {
        let source = StubPostDataService(posts: SamplePosts.make(count: count))
        let service = Self.service(source, store)
        try await service.sync()
        return (source, service)
    }
}

/// A store's persisted bytes (the JSON file; the SQLite file and its WAL) plus its contents as read back.
private struct StoredBytes: Equatable {
    let files: [String: Data]
    let snapshot: StoreSnapshot

    init(of store: any PostStoreProtocol, _ kind: StoreKind, in directory: TemporaryDirectory) async throws {
        files = try await kind.storedFiles(in: directory)
        snapshot = try await StoreSnapshot(of: store)
    }
}

/// A source that answers 304, after running `write` as another process might while the request is on its way.
private final class ConcurrentWriteDataService: PostDataService {
    let source: String
    private let write: @Sendable () async throws -> Void
    private let etag = Mutex<String?>(nil)

    init(source: String, write: @escaping @Sendable () async throws -> Void) {
        self.source = source
        self.write = write
    }

    var requestedETag: String? { etag.withLock { $0 } }

    func streamPosts(_ request: PostFetchRequest) async throws -> PostStreamResult {
        etag.withLock { $0 = request.etag }
        try await write()
        return .notModified
    }
}
