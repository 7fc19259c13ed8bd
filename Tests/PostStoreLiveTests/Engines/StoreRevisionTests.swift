import PostStore
import PostStoreTestSupport
import PostStoreTesting
import Testing

/// Every engine's revision (what `poststore serve`'s ETags are made of): it changes with every write that changes a
/// post, seen from another instance too, stays with a write that changes none, and differs between two stores.
@Suite struct StoreRevisionTests {
    private func revision(_ store: any PostStoreProtocol) async throws -> String {
        try #require(try await store.revisionIfKept())
    }

    @Test(arguments: StoreKind.allCases)
    func changesWithThePostsAndOnlyWithThem(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.keepAlive() }
        let store = try kind.makeStore(in: directory)
        let posts = SamplePosts.make(count: 5)
        let empty = try await revision(store)
        try await store.upsert(posts)
        let filled = try await revision(store)
        #expect(filled != empty)
        // An unchanged re-sync and a sync state alone keep it.
        try await store.apply(PostChangeSet(upserts: posts, syncState: SyncState(source: "s", syncedAt: .now)))
        #expect(try await revision(store) == filled)
        // Another instance (another process) sees the same revision, and a change made there.
        if let other = try kind.reopen(in: directory) {
            #expect(try await revision(other) == filled)
            try await other.delete(ids: [3])
            #expect(try await revision(store) != filled)
        } else {
            try await store.delete(ids: [3])
            #expect(try await revision(store) != filled)
        }
        let afterDelete = try await revision(store)
        try await store.removeAll()
        #expect(try await revision(store) != afterDelete)
        // A page carries the revision of its own state.
        #expect(try await store.readPage(PostQuery()).revision == (try await revision(store)))
    }

    @Test(arguments: StoreKind.allCases)
    func twoStoresWithTheSamePostsDoNotShareOne(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.keepAlive() }
        let first = try kind.makeStore(in: directory, name: "first")
        let second = try kind.makeStore(in: directory, name: "second")
        try await first.upsert(SamplePosts.make(count: 3))
        try await second.upsert(SamplePosts.make(count: 3))
        #expect(try await revision(first) != (try await revision(second)))
    }
}
