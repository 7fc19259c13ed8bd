import Foundation
import PostStore
import PostStoreContainer
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
        #expect(try await source.fetchAllPosts() == SamplePosts.make(count: 10))

        source.fail(with: PostStoreError(.sourceUnavailable, "offline"))
        let error = await #expect(throws: PostStoreError.self) {
            try await source.streamPosts(PostFetchRequest(etag: "e"))
        }

        #expect(error?.code == .sourceUnavailable)
        #expect(source.fetchCount == 2)
        #expect(source.requestedETags == [nil, "e"])
    }

    @Test func theStubDataServiceServesItsETagAndPagesAndHonoursTheETagByteForByte() async throws {
        let composed = "\"caf\u{E9}\""
        let source = StubPostDataService(posts: SamplePosts.make(count: 2), etag: composed, honoursETag: true)

        guard case .posts(let stream, let etag, let pages) = try await source.streamPosts(PostFetchRequest()) else {
            Issue.record("An unconditional request got 'not modified'.")
            return
        }
        var reader = try stream.makeReader()
        #expect(try reader.readAll() == SamplePosts.make(count: 2) && etag == composed && pages == 1)
        // Canonically equivalent but other bytes: a server would not match it, and neither does the stub.
        guard case .posts = try await source.streamPosts(PostFetchRequest(etag: "\"cafe\u{301}\"")) else {
            Issue.record("A decomposed ETag matched the composed one.")
            return
        }
        guard case .notModified = try await source.streamPosts(PostFetchRequest(etag: composed)) else {
            Issue.record("The served ETag did not get 'not modified'.")
            return
        }

        source.answer(.posts(SamplePosts.make(count: 1), etag: "v2", pages: 3))
        guard case .posts(_, "v2", 3) = try await source.streamPosts(PostFetchRequest(etag: composed)) else {
            Issue.record("The new answer was not served.")
            return
        }
        source.answer(.notModified)
        guard case .notModified = try await source.streamPosts(PostFetchRequest()) else {
            Issue.record("'Not modified' was not served.")
            return
        }
    }

    @Test func fetchingAllPostsFromASourceThatSaysNotModifiedFails() async throws {
        let source = StubPostDataService()
        source.answer(.notModified)

        let error = await #expect(throws: PostStoreError.self) { try await source.fetchAllPosts() }

        #expect(error?.code == .sourceUnavailable)
        #expect(error?.message.contains("stub://posts answered \"not modified\"") == true, "\(error?.message ?? "")")
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
