import Foundation
import PostStore
import PostStoreTesting
import Testing

extension ContractCheck {
    /// An observed query gives its result now, then one result per write that changes it, never a repeat.
    static let anObservedQueryFollowsEachWriteThatChangesIt = ContractCheck(
        "anObservedQueryFollowsEachWriteThatChangesIt",
        "An observed query gives its result now, then one result per write that changes it, never a repeat."
    ) { store, _ async throws in
        let posts = SamplePosts.make(count: 20)
        try await store.upsert(posts)
        let query = PostQuery(userIds: [1], sort: .title, limit: 5)
        var results = ObservedValues(store.observe(query))
        #expect(try await results.next("the current result") == (try await store.query(query)))

        // Writes that leave the result as it was give nothing: the next result is the next change's.
        try await store.upsert([Post(userId: 2, id: 100, title: "another user's", body: "b")])
        try await store.upsert([posts[0]])
        try await store.delete(ids: [12, 999])
        try await store.saveSyncState(SyncState(source: "observed", syncedAt: Date(timeIntervalSince1970: 5)))
        try await store.upsert([Post(userId: 1, id: 101, title: "A first title", body: "b")])
        let added = try await results.next("a post that enters the window")
        #expect(added == (try await store.query(query)) && added?.first?.id == 101)

        try await store.upsert([Post(userId: 2, id: 101, title: "A first title", body: "b")])
        let moved = try await results.next("a post that moved to another user")
        #expect(moved == (try await store.query(query)) && moved?.contains { $0.id == 101 } == false)

        let heldId = try #require(moved?.last?.id)
        try await store.delete(ids: [heldId])
        #expect(try await results.next("a deleted post") == (try await store.query(query)))

        try await store.removeAll()
        #expect(try await results.next("every post removed") == [])
    }

    /// An observed post and the observed sync states follow the writes that change them.
    static let anObservedPostAndTheSyncStatesFollowTheirWrites = ContractCheck(
        "anObservedPostAndTheSyncStatesFollowTheirWrites",
        "An observed post and the observed sync states follow the writes that change them."
    ) { store, _ async throws in
        var post = ObservedValues(store.observePost(id: 3))
        var states = ObservedValues(store.observeSyncStates())
        #expect(try await post.next("a missing post") == .some(nil))
        #expect(try await states.next("no sync state") == [])

        let first = Post(userId: 1, id: 3, title: "created", body: "b")
        try await store.upsert([Post(userId: 1, id: 4, title: "another post", body: "b")])
        try await store.upsert([first])
        #expect(try await post.next("the post created") == first)
        let edited = Post(userId: 1, id: 3, title: "edited", body: "b")
        try await store.upsert([Post(userId: 1, id: 4, title: "another post, edited", body: "b"), edited])
        #expect(try await post.next("the post edited") == edited)
        try await store.delete(ids: [3])
        #expect(try await post.next("the post deleted") == .some(nil))

        let synced = SyncState(source: "observed", syncedAt: Date(timeIntervalSince1970: 10), fetched: 1)
        try await store.saveSyncState(synced)
        let saved = try await states.next("a saved sync state")
        #expect(saved == (try await store.syncStates()) && saved?.map(\.source) == ["observed"])
        var later = synced
        later.syncedAt = Date(timeIntervalSince1970: 20)
        try await store.saveSyncState(later)
        #expect(try await states.next("a later sync of the same source") == [later])
    }

    /// Another instance's writes reach the observers, as another process's or machine's would.
    static let anotherInstancesWritesReachTheObservers = ContractCheck(
        "anotherInstancesWritesReachTheObservers",
        "Another instance's writes reach the observers, as another process's or machine's would."
    ) { store, run async throws in
        let writer = try await run.secondInstance()
        var results = ObservedValues(store.observe(PostQuery(userIds: [7])))
        var states = ObservedValues(store.observeSyncStates())
        #expect(try await results.next("the current result") == [])
        #expect(try await states.next("no sync state") == [])
        let post = Post(userId: 7, id: 1, title: "written elsewhere", body: "b")
        try await writer.upsert([post])
        #expect(try await results.next("another instance's write") == [post])
        let state = SyncState(source: "elsewhere", syncedAt: Date(timeIntervalSince1970: 30))
        try await writer.saveSyncState(state)
        #expect(try await states.next("another instance's sync state") == [state])
    }

    /// An observer that does not ask for a while gets the latest result of a burst of 1,000 writes, then the next.
    ///
    /// Nothing is read while it does not ask, so nothing piles up whatever the rate of writes.
    static let aSlowObserverGetsTheLatestResultNotABacklog = ContractCheck(
        "aSlowObserverGetsTheLatestResultNotABacklog",
        "An observer that does not ask for a while gets the latest result of a burst of 1,000 writes, then the next."
    ) { store, _ async throws in
        var results = ObservedValues(store.observePost(id: 1))
        #expect(try await results.next("a missing post") == .some(nil))
        var last: Post?
        for write in 1...burstOfWrites {
            let post = Post(userId: 1, id: 1, title: "write \(write)", body: "b")
            try await store.upsert([post])
            last = post
        }
        #expect(try await results.next("the burst's last write") == last)
        let after = Post(userId: 1, id: 1, title: "after the burst", body: "b")
        try await store.upsert([after])
        #expect(try await results.next("the write after the burst") == after, "no earlier write is left to deliver")
    }

    /// The writes of ``aSlowObserverGetsTheLatestResultNotABacklog``: an observer that queued results would hold a
    /// thousand, and its first would not be the last write. (10,000 proved no more, and each of the JSON engine's
    /// writes rewrites its file: under the address sanitizer that case took almost all of the suite's 24 minutes.)
    static var burstOfWrites: Int { 1_000 }

    /// Cancelling the consuming task ends the observation, and lets go of what it held.
    static let cancellingTheConsumerEndsTheObservation = ContractCheck(
        "cancellingTheConsumerEndsTheObservation",
        "Cancelling the consuming task ends the observation, and lets go of what it held."
    ) { store, _ async throws in
        let (started, starting) = AsyncStream.makeStream(of: Void.self)
        let consumer = Task {
            var count = 0
            for try await _ in store.observe(PostQuery()) {
                count += 1
                starting.yield()
            }
            return count
        }
        var first = started.makeAsyncIterator()
        _ = await first.next()
        consumer.cancel()
        #expect(try await consumer.value == 1, "the loop ended at the cancel, after the first result")
        try await store.upsert([Post(userId: 1, id: 1, title: "after the end", body: "b")])
        if let observed = store as? any ObservedStore {
            let deadline = ContinuousClock.now + ObservedValues<Int>.limit
            while !observed.watcherSlot.isEmpty, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(5))
            }
            #expect(
                observed.watcherSlot.isEmpty,
                "the store's watcher, and its notifications, went with the last observer"
            )
        }
    }

    /// An observation the store refuses ends with the store's error.
    static let anObservationEndsWithTheStoresError = ContractCheck(
        "anObservationEndsWithTheStoresError",
        "An observation the store refuses ends with the store's error."
    ) { store, _ async throws in
        var results = store.observe(PostQuery(limit: -1)).makeAsyncIterator()
        await #expect(throws: PostStoreError.self) { _ = try await results.next() }
        #expect(try await results.next() == nil, "the sequence has ended")
    }
}
