import Foundation
import PostStore
import PostStoreTesting
import Testing

extension ContractCheck {
    /// A new store holds no post and no sync state.
    static let newStoreIsEmpty = ContractCheck(
        "newStoreIsEmpty",
        "A new store holds no post and no sync state."
    ) { store, _ async throws in
        #expect(try await store.count() == 0)
        #expect(try await store.query(.all) == [])
        #expect(try await store.post(id: 1) == nil)
        #expect(try await store.syncStates() == [])
        #expect(try await store.syncState(for: "anything") == nil)
    }

    /// An upsert counts each post as inserted (a new id), updated (any field differs) or unchanged.
    static let upsertCountsInsertedUpdatedAndUnchanged = ContractCheck(
        "upsertCountsInsertedUpdatedAndUnchanged",
        "An upsert counts each post as inserted (a new id), updated (any field differs) or unchanged."
    ) { store, _ async throws in
        let posts = SamplePosts.make(count: 5)
        #expect(try await store.upsert(posts) == WriteSummary(inserted: 5))
        #expect(try await store.upsert(posts) == WriteSummary(unchanged: 5))

        var changed = posts
        changed[1].title += " (edited)"
        changed[3].userId = 99
        let new = SamplePosts.make(count: 2, firstId: 100)
        #expect(try await store.upsert(changed + new) == WriteSummary(inserted: 2, updated: 2, unchanged: 3))
        #expect(try await store.count() == 7)
        #expect(try await store.post(id: 2) == changed[1])
        #expect(try await store.post(id: 4)?.userId == 99)
    }

    /// An upsert of no posts counts nothing and writes nothing.
    static let upsertOfAnEmptyBatchDoesNothing = ContractCheck(
        "upsertOfAnEmptyBatchDoesNothing",
        "An upsert of no posts counts nothing and writes nothing."
    ) { store, _ async throws in
        #expect(try await store.upsert([]) == WriteSummary())
        #expect(try await store.count() == 0)
    }

    /// Text that differs only in Unicode normalization is a change: posts are compared byte for byte.
    static let canonicallyEquivalentTextIsAnUpdate = ContractCheck(
        "canonicallyEquivalentTextIsAnUpdate",
        "Text that differs only in Unicode normalization is a change: posts are compared byte for byte."
    ) { store, _ async throws in
        let composed = Post(userId: 1, id: 1, title: "caf\u{E9}", body: "")
        let decomposed = Post(userId: 1, id: 1, title: "cafe\u{301}", body: "")
        _ = try await store.upsert([composed])
        #expect(try await store.upsert([decomposed]) == WriteSummary(updated: 1))
        #expect(try await store.post(id: 1)?.title.unicodeScalars.count == 5)
    }

    /// A batch that names an id twice is refused with constraintViolation, and nothing is written.
    static let aBatchWithARepeatedIdIsRefusedWhole = ContractCheck(
        "aBatchWithARepeatedIdIsRefusedWhole",
        "A batch that names an id twice is refused with constraintViolation, and nothing is written."
    ) { store, _ async throws in
        _ = try await store.upsert(SamplePosts.make(count: 3))
        let batch = SamplePosts.make(count: 2, firstId: 10) + SamplePosts.make(count: 1, firstId: 10)
        let error = try await expectRefusedWhole(.constraintViolation, by: store) { _ = try await store.upsert(batch) }
        #expect(error?.message.contains("10") == true)
    }

    /// A change set that upserts and deletes the same id is refused with constraintViolation, and nothing is written.
    static let aChangeSetThatUpsertsAndDeletesOneIdIsRefusedWhole = ContractCheck(
        "aChangeSetThatUpsertsAndDeletesOneIdIsRefusedWhole",
        "A change set that upserts and deletes the same id is refused with constraintViolation, and nothing is written."
    ) { store, _ async throws in
        _ = try await store.upsert(SamplePosts.make(count: 3))
        let changes = PostChangeSet(
            upserts: SamplePosts.make(count: 1, firstId: 2),
            deletions: [1, 2],
            syncState: SyncState(source: "s", syncedAt: Date())
        )
        _ = try await expectRefusedWhole(.constraintViolation, by: store) { _ = try await store.apply(changes) }
    }

    /// A change set requiring posts as they were read is written while they are, and refused whole with postChanged
    /// once another writer (another instance, where the subject opens one) changed, deleted or created one.
    static let aWriteOfPostsAsReadIsRefusedOnceAnotherWriterChangedThem = ContractCheck(
        "aWriteOfPostsAsReadIsRefusedOnceAnotherWriterChangedThem",
        "A change set requiring posts as they were read is written while they are, and refused whole with "
            + "postChanged once another writer changed, deleted or created one."
    ) { store, run async throws in
        _ = try await store.upsert(SamplePosts.make(count: 3))
        let other = try await run.secondInstance(orSame: store, for: "the other writer as another process")
        let read = try #require(try await store.post(id: 2))
        var edited = read
        edited.title = "edited from the post as read"
        var changes = PostChangeSet(upserts: [edited])
        changes.requiredPosts = [.stored(read), .absent(id: 9)]
        #expect(try await store.apply(changes) == WriteSummary(updated: 1), "written while the posts are as read")

        var theirs = edited
        theirs.body = "the other writer's body"
        _ = try await other.upsert([theirs])
        var mine = edited
        mine.title = "edited again from a stale read"
        changes = PostChangeSet(upserts: [mine], deletions: [1])
        changes.requiredPosts = [.stored(edited)]
        let changed = try await expectRefusedWhole(.postChanged, by: store) { _ = try await store.apply(changes) }
        #expect(changed?.message.contains("Post 2 ") == true, "\(String(describing: changed))")

        _ = try await other.delete(ids: [3])
        changes = PostChangeSet(deletions: [3])
        changes.requiredPosts = [.stored(SamplePosts.make(count: 1, firstId: 3)[0])]
        _ = try await expectRefusedWhole(.postChanged, by: store) { _ = try await store.apply(changes) }

        _ = try await other.upsert([Post(userId: 1, id: 9, title: "created", body: "by the other writer")])
        changes = PostChangeSet(upserts: [Post(userId: 1, id: 9, title: "mine", body: "b")])
        changes.requiredPosts = [.absent(id: 9)]
        _ = try await expectRefusedWhole(.postChanged, by: store) { _ = try await store.apply(changes) }
        #expect(try await store.post(id: 9)?.title == "created")
    }

    /// A change set writes its upserts, its deletions and its sync state together; only held ids count as deleted.
    static let applyWritesPostsDeletionsAndSyncStateTogether = ContractCheck(
        "applyWritesPostsDeletionsAndSyncStateTogether",
        "A change set writes its upserts, its deletions and its sync state together; only held ids count as deleted."
    ) { store, _ async throws in
        _ = try await store.upsert(SamplePosts.make(count: 4))
        var edited = SamplePosts.make(count: 1, firstId: 2)[0]
        edited.body = "new body"
        let state = SyncState(source: "https://example.com/posts", etag: "\"v2\"", syncedAt: Date(), fetched: 3)
        let summary = try await store.apply(
            PostChangeSet(
                upserts: [edited, Post(userId: 9, id: 50, title: "t", body: "b")] + SamplePosts.make(count: 1),
                deletions: [3, 4, 404],
                syncState: state
            )
        )
        #expect(summary == WriteSummary(inserted: 1, updated: 1, unchanged: 1, deleted: 2))
        #expect(try await store.query(.all).map(\.id) == [1, 2, 50])
        #expect(try await store.syncState(for: state.source) == state)
    }
}
