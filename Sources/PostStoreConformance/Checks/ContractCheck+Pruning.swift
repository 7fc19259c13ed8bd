import Foundation
import PostStore
import PostStoreTesting
import Testing

extension ContractCheck {
    /// A change set that deletes absent posts leaves exactly its upserted posts, and search forgets the rest.
    static let pruneLeavesExactlyTheUpsertedOnesAndSearchForgetsTheRest = ContractCheck(
        "pruneLeavesExactlyTheUpsertedOnesAndSearchForgetsTheRest",
        "A change set that deletes absent posts leaves exactly its upserted posts, and search forgets the rest."
    ) { store, _ async throws in
        _ = try await store.upsert(SamplePosts.make(count: 10))
        _ = try await store.upsert([Post(userId: 1, id: 10, title: "Zanzibar", body: "")])
        let kept = SamplePosts.make(count: 6) + SamplePosts.make(count: 2, firstId: 50)

        let summary = try await store.apply(
            PostChangeSet(upserts: kept, deletions: [7, 99], prune: true)
        )

        #expect(summary == WriteSummary(inserted: 2, unchanged: 6, deleted: 4))
        #expect(try await store.query(.all) == kept)
        #expect(try await store.query(PostQuery(search: "zanzibar")) == [])
    }

    /// A change set over its deletion limit is refused with tooManyDeletions, and nothing is written.
    static let aChangeSetOverItsDeletionLimitIsRefusedBeforeAnythingIsWritten = ContractCheck(
        "aChangeSetOverItsDeletionLimitIsRefusedBeforeAnythingIsWritten",
        "A change set over its deletion limit is refused with tooManyDeletions, and nothing is written."
    ) { store, _ async throws in
        _ = try await store.upsert(SamplePosts.make(count: 10))
        var changes = PostChangeSet(
            upserts: SamplePosts.make(count: 6, firstId: 5),
            prune: true,
            deletionLimit: .share(0.3),
            syncState: SyncState(source: "s", syncedAt: Date())
        )

        // Ids 1…4 would go: 4 of 10 is over 30%.
        // The code is what the protocol promises; the message is the engine's (DeletionLimitTests checks the
        // core's).
        _ = try await expectRefusedWhole(.tooManyDeletions, by: store) { _ = try await store.apply(changes) }
        await #expect(throws: PostStoreError.self) { try await store.preview(changes) }

        changes.deletionLimit = .share(0.4)
        #expect(try await store.apply(changes).deleted == 4)
    }

    /// A preview returns what apply will return, and writes nothing.
    static let previewReturnsWhatApplyWillAndWritesNothing = ContractCheck(
        "previewReturnsWhatApplyWillAndWritesNothing",
        "A preview returns what apply will return, and writes nothing."
    ) { store, _ async throws in
        _ = try await store.upsert(SamplePosts.make(count: 10))
        var posts = SamplePosts.make(count: 8) + SamplePosts.make(count: 3, firstId: 20)
        posts[0].title = "changed"
        let changes = PostChangeSet(
            upserts: posts,
            prune: true,
            syncState: SyncState(source: "s", syncedAt: Date())
        )
        let before = try await StoreSnapshot(of: store)

        let preview = try await store.preview(changes)

        #expect(preview == WriteSummary(inserted: 3, updated: 1, unchanged: 7, deleted: 2))
        #expect(try await StoreSnapshot(of: store) == before)
        #expect(try await store.apply(changes) == preview)
        let duplicate = PostChangeSet(upserts: [posts[0], posts[0]])
        await #expect(throws: PostStoreError.self) { try await store.preview(duplicate) }
    }

    /// A sync state recording its summary saves the counts of its own change set.
    static let aSyncStateCanRecordWhatItsChangeSetDid = ContractCheck(
        "aSyncStateCanRecordWhatItsChangeSetDid",
        "A sync state recording its summary saves the counts of its own change set."
    ) { store, _ async throws in
        _ = try await store.upsert(SamplePosts.make(count: 4))
        let stated = SyncState(source: "s", syncedAt: Date(timeIntervalSince1970: 5), fetched: 5, inserted: 99)
        let changes = PostChangeSet(
            upserts: SamplePosts.make(count: 5),
            deletions: [],
            syncState: stated,
            syncStateRecording: .recordingSummary
        )

        _ = try await store.apply(changes)

        let saved = try #require(try await store.syncState(for: "s"))
        #expect((saved.fetched, saved.inserted, saved.updated, saved.unchanged, saved.deleted) == (5, 1, 0, 4, 0))
    }

    /// A write that changes any post clears every remembered ETag, except its own sync state's new one.
    static let aWriteThatChangesPostsForgetsEveryRememberedETag = ContractCheck(
        "aWriteThatChangesPostsForgetsEveryRememberedETag",
        "A write that changes any post clears every remembered ETag and change token, except its own sync state's."
    ) { store, _ async throws in
        let date = Date(timeIntervalSince1970: 7)
        var a = SyncState(source: "a", etag: "A", syncedAt: date)
        a.changeToken = ChangeToken(storeID: "a1", revision: 4)
        _ = try await store.apply(PostChangeSet(upserts: SamplePosts.make(count: 3), syncState: a))
        var b = SyncState(source: "b", etag: "B", syncedAt: date)
        b.changeToken = ChangeToken(storeID: "b1", revision: 9)
        try await store.saveSyncState(b)

        _ = try await store.upsert(SamplePosts.make(count: 3))
        #expect(try await store.syncStates().map(\.etag) == ["A", "B"], "an unchanged write keeps them")
        #expect(try await store.syncStates().map(\.changeToken) == [a.changeToken, b.changeToken])

        _ = try await store.apply(
            PostChangeSet(
                upserts: SamplePosts.make(count: 4),
                syncState: SyncState(source: "b", etag: "B2", syncedAt: date)
            )
        )
        #expect(try await store.syncState(for: "a")?.etag == nil)
        #expect(try await store.syncState(for: "a")?.changeToken == nil)
        #expect(try await store.syncState(for: "b")?.etag == "B2", "the write's own state keeps its new ETag")

        _ = try await store.delete(ids: [1])
        #expect(try await store.syncStates().allSatisfy { $0.etag == nil && $0.changeToken == nil })
    }

    /// A confirmed ETag (and the change token beside it) is kept only while no post changed since the sync that
    /// saved it.
    static let aConfirmedETagIsKeptOnlyWhileTheStoreStillHoldsIt = ContractCheck(
        "aConfirmedETagIsKeptOnlyWhileTheStoreStillHoldsIt",
        "A confirmed ETag is kept only while no post changed since the sync that saved it."
    ) { store, _ async throws in
        let first = SyncState(source: "s", etag: "E", syncedAt: Date(timeIntervalSince1970: 1), fetched: 3)
        _ = try await store.apply(PostChangeSet(upserts: SamplePosts.make(count: 3), syncState: first))
        var confirmation = SyncState(source: "s", etag: "E", syncedAt: Date(timeIntervalSince1970: 2))
        confirmation.changeToken = ChangeToken(storeID: "e", revision: 1)

        _ = try await store.apply(PostChangeSet(syncState: confirmation, syncStateRecording: .confirmingETag))
        #expect(try await store.syncState(for: "s") == confirmation)

        _ = try await store.delete(ids: [1])
        _ = try await store.apply(PostChangeSet(syncState: confirmation, syncStateRecording: .confirmingETag))
        let saved = try #require(try await store.syncState(for: "s"))
        #expect(saved.etag == nil && saved.changeToken == nil && saved.syncedAt == confirmation.syncedAt)
    }
}
