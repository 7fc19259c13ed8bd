import Foundation
import PostStore
import PostStoreTesting
import Testing

extension ContractCheck {
    /// Every kind of text (emoji, accents, NUL characters, extreme ids) reads back exactly as written (NUL
    /// characters refused whole by an engine that keeps none).
    static let everyKindOfTextRoundTripsExactly = ContractCheck(
        "everyKindOfTextRoundTripsExactly",
        "Every kind of text (emoji, accents, NUL characters, extreme ids) reads back exactly as written."
    ) { store, run async throws in
        let written = try await upsertTrickyPosts(into: store, run)
        for post in written {
            let stored = try await store.post(id: post.id)
            #expect(stored == post)
            #expect(stored.map { Array($0.title.utf8) } == Array(post.title.utf8))
            #expect(stored.map { Array($0.body.utf8) } == Array(post.body.utf8))
        }
        if let reopened = try await run.secondInstance(for: "reading the posts back through a second instance") {
            #expect(try await reopened.query(.all) == written.sorted { $0.id < $1.id })
        }
    }

    /// Reading an id the store does not hold returns nil.
    static let missingIdsReadAsNil = ContractCheck(
        "missingIdsReadAsNil",
        "Reading an id the store does not hold returns nil."
    ) { store, _ async throws in
        _ = try await store.upsert(SamplePosts.make(count: 3))
        #expect(try await store.post(id: 4) == nil)
        #expect(try await store.post(id: 0) == nil)
        #expect(try await store.post(id: -1) == nil)
    }

    /// A delete removes and counts only the ids the store holds, and search forgets the deleted posts.
    static let deleteRemovesOnlyHeldIdsAndCountsThem = ContractCheck(
        "deleteRemovesOnlyHeldIdsAndCountsThem",
        "A delete removes and counts only the ids the store holds, and search forgets the deleted posts."
    ) { store, _ async throws in
        _ = try await store.upsert(SamplePosts.make(count: 5))
        _ = try await store.upsert([Post(userId: 1, id: 4, title: "Zanzibar", body: "xy")])
        #expect(try await store.query(PostQuery(search: "zanzibar xy")).map(\.id) == [4])
        #expect(try await store.delete(ids: [2, 4, 6, 8]) == 2)
        #expect(try await store.delete(ids: []) == 0)
        #expect(try await store.query(.all).map(\.id) == [1, 3, 5])
        #expect(try await store.count() == 3)
        #expect(try await store.query(PostQuery(search: "zanzibar")) == [], "the search index forgets it too")
        #expect(try await store.query(PostQuery(search: "xy")) == [])
    }

    /// removeAll() deletes every post and sync state, and leaves a store that works like a new one.
    static let removeAllEmptiesPostsAndSyncStates = ContractCheck(
        "removeAllEmptiesPostsAndSyncStates",
        "removeAll() deletes every post and sync state, and leaves a store that works like a new one."
    ) { store, run async throws in
        _ = try await store.apply(
            PostChangeSet(upserts: SamplePosts.make(count: 20), syncState: SyncState(source: "a", syncedAt: Date()))
        )
        try await store.removeAll()
        #expect(try await store.count() == 0)
        #expect(try await store.syncStates() == [])
        #expect(try await store.query(PostQuery(search: "lorem")) == [])
        let fresh = SamplePosts.make(count: 2)
        _ = try await store.upsert(fresh)
        #expect(try await store.query(PostQuery(search: fresh[1].title)).contains(fresh[1]))
        if let reopened = try await run.secondInstance(for: "counting the posts through a second instance") {
            #expect(try await reopened.count() == 2)
        }
    }
}
