import PostStore
import PostStoreTestSupport
import PostStoreTesting
import Testing

/// What every engine of this package promises beyond the contract's changes feed (which lets an engine refetch
/// every token): it keeps a history, shared by every instance on the store, within a limit it can be given.
@Suite struct ChangeHistoryTests {
    @Test(arguments: StoreKind.allCases)
    func theTokenBeforeAWriteIsAnsweredFromAnyInstance(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.keepAlive() }
        let store = try kind.makeStore(in: directory)
        try await store.upsert(SamplePosts.make(count: 3))
        let before = try await store.changeToken()
        let edited = Post(userId: 5, id: 2, title: "edited", body: "by the next write")
        try await store.apply(PostChangeSet(upserts: [edited], deletions: [3]))
        for reader in [store, try kind.reopen(in: directory)].compactMap({ $0 }) {
            let changes = try await reader.changes(since: before, limit: 10)
            #expect(changes.posts == [edited] && changes.deletedIds == [3] && changes.isCaughtUp)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func theHistoryKeepsItsLimitAndDropsTheRest(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.keepAlive() }
        let store = try #require(try kind.makeStore(in: directory) as? any ChangeHistoryKeeping)
        try await store.setChangeHistoryLimit(4)
        let first = try await store.changeToken()
        var tokens = [first]
        for id in 1...12 {
            try await store.apply(PostChangeSet(upserts: SamplePosts.make(count: 1, firstId: id), deletions: [id - 1]))
            tokens.append(try await store.changeToken())
        }
        let history = try await store.changeHistory()
        #expect(history.newest == tokens.last && history.limit == 4)
        #expect(history.oldest == tokens[12 - 4], "the last four writes, compacted as each write goes")
        await #expect {
            _ = try await store.changes(since: tokens[12 - 5], limit: 100)
        } throws: { ($0 as? PostStoreError)?.code == .mustRefetch }
        let kept = try await store.changes(since: history.oldest, limit: 100)
        #expect(kept.posts.map(\.id) == [12] && kept.deletedIds == [8, 9, 10, 11])
        if let other = try kind.reopen(in: directory) as? any ChangeHistoryKeeping {
            #expect(try await other.changeHistory() == history)
        }
        await #expect {
            try await store.setChangeHistoryLimit(0)
        } throws: { ($0 as? PostStoreError)?.code == .invalidArgument }
        // A larger limit keeps more from now on, and brings back nothing dropped.
        try await store.setChangeHistoryLimit(100)
        try await store.upsert(SamplePosts.make(count: 1, firstId: 20))
        #expect(try await store.changeHistory().oldest == history.oldest)
    }
}
