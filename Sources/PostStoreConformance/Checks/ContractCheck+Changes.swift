import Foundation
import PostStore
import PostStoreTesting
import Testing

extension ContractCheck {
    /// Without a token, the changes are every post and the token of that state; a new store's token answers no
    /// changes.
    static let theChangesWithoutATokenAreEveryPost = ContractCheck(
        "theChangesWithoutATokenAreEveryPost",
        "Without a token, the changes are every post and the token of that state."
    ) { store, _ async throws in
        let empty = try await store.changes(since: nil, limit: 1)
        #expect(empty.posts.isEmpty && empty.deletedIds.isEmpty && empty.isCaughtUp)
        #expect(empty.next == (try await store.changeToken()))
        let none = try await store.changes(since: empty.next, limit: 1)
        #expect(none.posts.isEmpty && none.deletedIds.isEmpty && none.isCaughtUp && none.next == empty.next)

        let posts = SamplePosts.make(count: 5)
        try await store.upsert(posts.reversed())
        let all = try await store.changes(since: nil, limit: 1)
        #expect(all.posts == posts, "every post, in id order, whatever the limit")
        #expect(all.deletedIds.isEmpty && all.isCaughtUp)
        #expect(all.next == (try await store.changeToken()))
        #expect(all.next != empty.next)
    }

    /// The changes since a token are the posts later writes wrote, as they are now, and the ids they deleted.
    static let theChangesSinceATokenAreTheLaterWritesOnly = ContractCheck(
        "theChangesSinceATokenAreTheLaterWritesOnly",
        "The changes since a token are the posts later writes wrote, as they are now, and the ids they deleted."
    ) { store, run async throws in
        try await store.upsert(SamplePosts.make(count: 4))
        let before = try await store.changeToken()
        let edited = Post(userId: 9, id: 2, title: "edited", body: "once")
        let editedAgain = Post(userId: 9, id: 2, title: "edited", body: "twice")
        let added = Post(userId: 1, id: 7, title: "new", body: "post")
        try await store.upsert([edited, added, SamplePosts.make(count: 4)[2]])
        try await store.delete(ids: [1, 99])
        try await store.upsert([editedAgain])
        try await store.upsert([Post(userId: 1, id: 8, title: "short", body: "lived")])
        try await store.delete(ids: [8])
        let changes = try await run.changesOfAStoreWithHistory(store, since: before, limit: 100)
        #expect(changes.posts == [editedAgain, added])
        #expect(changes.deletedIds == [1, 8], "a deleted post, and one inserted and deleted after the token")
        #expect(changes.isCaughtUp)
        #expect(changes.next == (try await store.changeToken()))
        let reader = try await run.secondInstance(orSame: store, for: "reading the changes through a second instance")
        #expect(try await reader.changes(since: before, limit: 100) == changes)
        #expect(try await reader.changeToken() == changes.next)
    }

    /// A write that changes no post keeps the token: unchanged upserts, deletions of missing ids, sync states.
    static let aWriteThatChangesNoPostKeepsTheToken = ContractCheck(
        "aWriteThatChangesNoPostKeepsTheToken",
        "A write that changes no post keeps the token: unchanged upserts, deletions of missing ids, sync states."
    ) { store, _ async throws in
        let posts = SamplePosts.make(count: 3)
        try await store.upsert(posts)
        let token = try await store.changeToken()
        try await store.upsert(posts)
        try await store.delete(ids: [42])
        try await store.saveSyncState(SyncState(source: "s", etag: "\"e\"", syncedAt: Date()))
        _ = try await store.preview(PostChangeSet(upserts: [Post(userId: 1, id: 9, title: "t", body: "b")]))
        #expect(try await store.changeToken() == token)
        let changes = try await store.changes(since: token, limit: 10)
        #expect(changes == PostChanges(posts: [], deletedIds: [], next: token, isCaughtUp: true))
    }

    /// Answers stop near their limit on whole writes, and applied in order they lead a copy only through states the
    /// store held, ending in its state now.
    static let answersLeadACopyThroughHeldStatesOnly = ContractCheck(
        "answersLeadACopyThroughHeldStatesOnly",
        "Answers stop near their limit on whole writes and lead a copy only through states the store held."
    ) { store, run async throws in
        // A fixed pseudo-random history of small writes over ten ids: updates, inserts, deletions, re-inserts.
        func roll(_ step: Int, _ id: Int, _ choice: Int) -> UInt64 {
            var hasher = StableHasher()
            for value in [step, id, choice] { hasher.combine(value) }
            return hasher.value
        }
        var held: [ChangeToken: [Int: Post]] = [:]
        func remember() async throws {
            held[try await store.changeToken()] = Dictionary(
                uniqueKeysWithValues: try await store.query(.all).map { ($0.id, $0) }
            )
        }
        try await remember()
        for step in 0..<60 {
            var upserts: [Post] = []
            var deletions: Set<Int> = []
            for id in 1...10 where roll(step, id, 0) % 4 == 0 {
                if roll(step, id, 1) % 3 == 0 {
                    deletions.insert(id)
                } else {
                    upserts.append(Post(userId: id % 3, id: id, title: "step \(step)", body: "id \(id)"))
                }
            }
            try await store.apply(PostChangeSet(upserts: upserts, deletions: deletions))
            try await remember()
        }
        let newest = try await store.changeToken()
        _ = try await run.changesOfAStoreWithHistory(store, since: held.keys.first { $0 != newest }!, limit: 1)
        var pagesSeen = 0
        for (start, state) in held {
            for limit in [1, 2, 5] {
                var copy = state
                var token = start
                while true {
                    let changes = try await store.changes(since: token, limit: limit)
                    pagesSeen += 1
                    #expect(changes.next.revision >= token.revision)
                    for post in changes.posts { copy[post.id] = post }
                    for id in changes.deletedIds { copy[id] = nil }
                    #expect(
                        held[changes.next] == copy,
                        "the copy holds the state of the answer's token, \(changes.next), from \(start) by \(limit)"
                    )
                    token = changes.next
                    if changes.isCaughtUp { break }
                    #expect(changes.count > 0, "an answer short of the newest state holds changes")
                }
                #expect(token == newest)
            }
        }
        #expect(pagesSeen > held.count * 3, "some answers stopped at their limit")
    }

    /// A token of another store, of a store made again at the same place, or from ahead of the store must refetch.
    static let foreignAndFutureTokensMustRefetch = ContractCheck(
        "foreignAndFutureTokensMustRefetch",
        "A token of another store, of a store made again at the same place, or from ahead of the store must refetch."
    ) { store, run async throws in
        try await store.upsert(SamplePosts.make(count: 2))
        let token = try await store.changeToken()
        let ahead = ChangeToken(storeID: token.storeID, revision: token.revision + 5)
        for foreign in [ChangeToken(storeID: "0123456789abcdef", revision: 1), ahead] {
            await #expect {
                _ = try await store.changes(since: foreign, limit: 10)
            } throws: { ($0 as? PostStoreError)?.code == .mustRefetch }
        }
        await #expect {
            _ = try await store.changes(since: token, limit: 0)
        } throws: { ($0 as? PostStoreError)?.code == .invalidArgument }

        guard let remade = try await run.storeMadeAgain(for: "a token of a store deleted and made again") else {
            return
        }
        try await remade.upsert(SamplePosts.make(count: 3))
        await #expect {
            _ = try await remade.changes(since: token, limit: 10)
        } throws: { ($0 as? PostStoreError)?.code == .mustRefetch }
    }

    /// After removeAll(), a token of posts that are gone must refetch, and the store's new token answers as a new
    /// store's.
    ///
    /// A token of an empty state may be answered with no changes (the store is empty again) or refetch; the engines
    /// of this package refetch every earlier token, since they keep no tombstones for what removeAll() deleted.
    static let removeAllMakesEarlierTokensRefetch = ContractCheck(
        "removeAllMakesEarlierTokensRefetch",
        "After removeAll(), a token of posts that are gone must refetch, and the new token answers as a new store's."
    ) { store, _ async throws in
        let empty = try await store.changeToken()
        try await store.upsert(SamplePosts.make(count: 3))
        let full = try await store.changeToken()
        try await store.removeAll()
        await #expect {
            _ = try await store.changes(since: full, limit: 10)
        } throws: { ($0 as? PostStoreError)?.code == .mustRefetch }
        do {
            #expect(try await store.changes(since: empty, limit: 10).count == 0)
        } catch let error as PostStoreError where error.code == .mustRefetch {}
        let now = try await store.changeToken()
        #expect(try await store.changes(since: now, limit: 10).count == 0)
        try await store.upsert([SamplePosts.make(count: 1)[0]])
        #expect(try await store.changes(since: now, limit: 10).posts.map(\.id) == [1])
    }
}

extension ContractCheck {
    /// A change set that requires a change token is written only while its source's saved state holds that token.
    static let aRequiredChangeTokenGuardsTheWrite = ContractCheck(
        "aRequiredChangeTokenGuardsTheWrite",
        "A change set that requires a change token is written only while its source's saved state holds it."
    ) { store, _ async throws in
        let first = ChangeToken(storeID: "a", revision: 1)
        let second = ChangeToken(storeID: "a", revision: 2)
        func state(_ token: ChangeToken) -> SyncState {
            var state = SyncState(source: "feed", syncedAt: Date(timeIntervalSince1970: 1))
            state.changeToken = token
            return state
        }
        func step(_ posts: [Post], from required: ChangeToken?, to token: ChangeToken) -> PostChangeSet {
            var changes = PostChangeSet(upserts: posts, syncState: state(token))
            changes.requiredChangeToken = required
            return changes
        }
        try await store.apply(step(SamplePosts.make(count: 2), from: nil, to: first))
        try await store.apply(step(SamplePosts.make(count: 1, firstId: 3), from: first, to: second))
        #expect(try await store.syncState(for: "feed")?.changeToken == second)
        for stale in [first, ChangeToken(storeID: "b", revision: 2)] {
            await #expect {
                try await store.apply(step(SamplePosts.make(count: 1, firstId: 9), from: stale, to: second))
            } throws: { ($0 as? PostStoreError)?.code == .checkpointMoved }
        }
        #expect(try await store.count() == 3, "a refused change set writes nothing")
        try await store.delete(ids: [1])
        await #expect(throws: PostStoreError.self, "a write that changed posts cleared the checkpoint") {
            try await store.apply(step([], from: second, to: second))
        }
    }
}
