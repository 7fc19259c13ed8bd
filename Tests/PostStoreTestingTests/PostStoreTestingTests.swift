import Foundation
import PostStore
import PostStoreTesting
import Testing

/// The doubles embedders use: each records what it should and fails when told to.
@Suite struct PostStoreTestingTests {
    @Test func theSpyRecordsEveryCallWithItsArgumentsAndStillStores() async throws {
        let store = SpyPostStore(posts: SamplePosts.make(count: 2))

        try await store.upsert(SamplePosts.make(count: 3))
        _ = try await store.query(PostQuery(search: "lorem"))
        try await store.delete(ids: [1])

        #expect(await store.upsertCallCount == 1)
        #expect(await store.lastUpsertedPosts == SamplePosts.make(count: 3))
        #expect(await store.lastQuery == PostQuery(search: "lorem"))
        #expect(await store.lastDeletedIds == [1])
        #expect(await store.calls.map(\.method) == [.upsert, .query, .delete])
        #expect(try await store.count() == 2)
    }

    @Test(arguments: SpyPostStore.Method.allCases)
    func theSpyFailsTheMethodItIsToldToAndNothingElse(_ method: SpyPostStore.Method) async throws {
        let store = SpyPostStore(posts: SamplePosts.make(count: 2))
        await store.fail(method, with: PostStoreError(.storeBusy, "Injected."))

        for other in SpyPostStore.Method.allCases {
            let call = { try await Self.call(other, on: store) }
            if other == method {
                let error = await #expect(throws: PostStoreError.self) { try await call() }
                #expect(error?.code == .storeBusy)
            } else {
                try await call()
            }
        }
        await store.succeed(method)
        try await Self.call(method, on: store)
        #expect(await store.callCount(method) == 2)
    }

    @Test func theStubDataServiceServesSamplesCountsFetchesAndFails() async throws {
        let source = StubPostDataService()
        #expect(
            try await source.fetchPosts(PostFetchRequest()) == .posts(SamplePosts.make(count: 10), etag: nil, pages: 1)
        )

        source.fail(with: PostStoreError(.sourceUnavailable, "offline"))
        let error = await #expect(throws: PostStoreError.self) {
            try await source.fetchPosts(PostFetchRequest(etag: "e"))
        }

        #expect(error?.code == .sourceUnavailable)
        #expect(source.fetchCount == 2)
        #expect(source.requestedETags == [nil, "e"])
    }

    @Test func theTestClockRecordsSleepsWithoutWaiting() async throws {
        let clock = TestClock()
        let start = clock.now()

        try await clock.sleep(for: .seconds(3600))
        clock.advance(by: .milliseconds(500))

        #expect(clock.sleeps == [.seconds(3600)])
        #expect(clock.uptime() == .milliseconds(3_600_500))
        #expect(clock.now().timeIntervalSince(start) == 3600.5)
    }

    private static func call(_ method: SpyPostStore.Method, on store: SpyPostStore) async throws {
        switch method {
        case .apply: try await store.apply(PostChangeSet())
        case .preview: _ = try await store.preview(PostChangeSet())
        case .upsert: try await store.upsert([])
        case .delete: try await store.delete(ids: [])
        case .post: _ = try await store.post(id: 1)
        case .query: _ = try await store.query(.all)
        case .count: _ = try await store.count()
        case .removeAll: try await store.removeAll()
        case .syncState: _ = try await store.syncState(for: "s")
        case .syncStates: _ = try await store.syncStates()
        }
    }
}
