import Foundation
import PostStoreLive
import PostStoreTesting
import Testing

@_spi(FileSystem) @testable import PostStore
@testable import PostStoreHTTP
@testable import PostStoreJSONFile
@testable import PostStoreSQLite

/// The contract of ``PostStoreProtocol``, run on every engine. A new engine joins by adding a case to `StoreKind`.
@Suite("PostStoreProtocol contract")
struct PostStoreContractTests {
    // MARK: - An empty store

    @Test(arguments: StoreKind.allCases)
    func newStoreIsEmpty(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ async throws in
            #expect(try await store.count() == 0)
            #expect(try await store.query(.all) == [])
            #expect(try await store.post(id: 1) == nil)
            #expect(try await store.syncStates() == [])
            #expect(try await store.syncState(for: "anything") == nil)
        }
    }

    // MARK: - Upsert

    @Test(arguments: StoreKind.allCases)
    func upsertCountsInsertedUpdatedAndUnchanged(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ async throws in
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
    }

    @Test(arguments: StoreKind.allCases)
    func upsertOfAnEmptyBatchDoesNothing(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ async throws in
            #expect(try await store.upsert([]) == WriteSummary())
            #expect(try await store.count() == 0)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func canonicallyEquivalentTextIsAnUpdate(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ async throws in
            let composed = Post(userId: 1, id: 1, title: "caf\u{E9}", body: "")
            let decomposed = Post(userId: 1, id: 1, title: "cafe\u{301}", body: "")
            _ = try await store.upsert([composed])
            #expect(try await store.upsert([decomposed]) == WriteSummary(updated: 1))
            #expect(try await store.post(id: 1)?.title.unicodeScalars.count == 5)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aBatchWithARepeatedIdIsRefusedWhole(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ async throws in
            _ = try await store.upsert(SamplePosts.make(count: 3))
            let before = try await StoreSnapshot(of: store)
            let batch = SamplePosts.make(count: 2, firstId: 10) + SamplePosts.make(count: 1, firstId: 10)
            let error = await #expect(throws: PostStoreError.self) { try await store.upsert(batch) }
            #expect(error?.code == .constraintViolation)
            #expect(error?.message.contains("10") == true)
            #expect(try await StoreSnapshot(of: store) == before)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aChangeSetThatUpsertsAndDeletesOneIdIsRefusedWhole(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ async throws in
            _ = try await store.upsert(SamplePosts.make(count: 3))
            let before = try await StoreSnapshot(of: store)
            let changes = PostChangeSet(
                upserts: SamplePosts.make(count: 1, firstId: 2),
                deletions: [1, 2],
                syncState: SyncState(source: "s", syncedAt: Date())
            )
            let error = await #expect(throws: PostStoreError.self) { try await store.apply(changes) }
            #expect(error?.code == .constraintViolation)
            #expect(try await StoreSnapshot(of: store) == before)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func applyWritesPostsDeletionsAndSyncStateTogether(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ async throws in
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

    // MARK: - Reading

    @Test(arguments: StoreKind.allCases)
    func everyKindOfTextRoundTripsExactly(kind: StoreKind) async throws {
        try await withStore(kind) { store, directory async throws in
            _ = try await store.upsert(SamplePosts.tricky)
            for post in SamplePosts.tricky {
                let stored = try await store.post(id: post.id)
                #expect(stored == post)
                #expect(stored.map { Array($0.title.utf8) } == Array(post.title.utf8))
                #expect(stored.map { Array($0.body.utf8) } == Array(post.body.utf8))
            }
            if let reopened = try kind.reopen(in: directory) {
                #expect(try await reopened.query(.all) == SamplePosts.tricky.sorted { $0.id < $1.id })
            }
        }
    }

    @Test(arguments: StoreKind.allCases)
    func missingIdsReadAsNil(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ async throws in
            _ = try await store.upsert(SamplePosts.make(count: 3))
            #expect(try await store.post(id: 4) == nil)
            #expect(try await store.post(id: 0) == nil)
            #expect(try await store.post(id: -1) == nil)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func deleteRemovesOnlyHeldIdsAndCountsThem(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ async throws in
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
    }

    @Test(arguments: StoreKind.allCases)
    func removeAllEmptiesPostsAndSyncStates(kind: StoreKind) async throws {
        try await withStore(kind) { store, directory async throws in
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
            if let reopened = try kind.reopen(in: directory) {
                #expect(try await reopened.count() == 2)
            }
        }
    }

    // MARK: - Pruning, deletion limits and previews

    @Test(arguments: StoreKind.allCases)
    func deletesAbsentPostsLeavesExactlyTheUpsertedOnesAndSearchForgetsTheRest(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ async throws in
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
    }

    @Test(arguments: StoreKind.allCases)
    func aChangeSetOverItsDeletionLimitIsRefusedBeforeAnythingIsWritten(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ async throws in
            _ = try await store.upsert(SamplePosts.make(count: 10))
            let before = try await StoreSnapshot(of: store)
            var changes = PostChangeSet(
                upserts: SamplePosts.make(count: 6, firstId: 5),
                prune: true,
                deletionLimit: .share(0.3),
                syncState: SyncState(source: "s", syncedAt: Date())
            )

            // Ids 1…4 would go: 4 of 10 is over 30%.
            let error = await #expect(throws: PostStoreError.self) { try await store.apply(changes) }
            #expect(error?.code == .tooManyDeletions)
            #expect(
                error?.message
                    == "Deleting 4 of the 10 stored posts exceeds the limit of 30% (3 posts); nothing was written."
            )
            #expect(try await StoreSnapshot(of: store) == before)
            await #expect(throws: PostStoreError.self) { try await store.preview(changes) }

            changes.deletionLimit = .share(0.4)
            #expect(try await store.apply(changes).deleted == 4)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func previewReturnsWhatApplyWillAndWritesNothing(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ async throws in
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
    }

    @Test(arguments: StoreKind.allCases)
    func aSyncStateCanRecordWhatItsChangeSetDid(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ async throws in
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
    }

    @Test(arguments: StoreKind.allCases)
    func aWriteThatChangesPostsForgetsEveryRememberedETag(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ async throws in
            let date = Date(timeIntervalSince1970: 7)
            _ = try await store.apply(
                PostChangeSet(
                    upserts: SamplePosts.make(count: 3),
                    syncState: SyncState(source: "a", etag: "A", syncedAt: date)
                )
            )
            try await store.saveSyncState(SyncState(source: "b", etag: "B", syncedAt: date))

            _ = try await store.upsert(SamplePosts.make(count: 3))
            #expect(try await store.syncStates().map(\.etag) == ["A", "B"], "an unchanged write keeps them")

            _ = try await store.apply(
                PostChangeSet(
                    upserts: SamplePosts.make(count: 4),
                    syncState: SyncState(source: "b", etag: "B2", syncedAt: date)
                )
            )
            #expect(try await store.syncState(for: "a")?.etag == nil)
            #expect(try await store.syncState(for: "b")?.etag == "B2", "the write's own state keeps its new ETag")

            _ = try await store.delete(ids: [1])
            #expect(try await store.syncStates().allSatisfy { $0.etag == nil })
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aConfirmedETagIsKeptOnlyWhileTheStoreStillHoldsIt(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ async throws in
            let first = SyncState(source: "s", etag: "E", syncedAt: Date(timeIntervalSince1970: 1), fetched: 3)
            _ = try await store.apply(PostChangeSet(upserts: SamplePosts.make(count: 3), syncState: first))
            let confirmation = SyncState(source: "s", etag: "E", syncedAt: Date(timeIntervalSince1970: 2))

            _ = try await store.apply(PostChangeSet(syncState: confirmation, syncStateRecording: .confirmingETag))
            #expect(try await store.syncState(for: "s") == confirmation)

            _ = try await store.delete(ids: [1])
            _ = try await store.apply(PostChangeSet(syncState: confirmation, syncStateRecording: .confirmingETag))
            let saved = try #require(try await store.syncState(for: "s"))
            #expect(saved.etag == nil && saved.syncedAt == confirmation.syncedAt)
        }
    }

    // MARK: - Query

    @Test(arguments: StoreKind.allCases)
    func queryFiltersByIdsAndUsers(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ async throws in
            _ = try await store.upsert(SamplePosts.make(count: 30))
            #expect(try await store.query(PostQuery(ids: [3, 1, 99])).map(\.id) == [1, 3])
            #expect(try await store.query(PostQuery(userIds: [2])).map(\.id) == Array(11...20))
            #expect(try await store.query(PostQuery(ids: [5, 15, 25], userIds: [2, 3])).map(\.id) == [15, 25])
            #expect(try await store.query(PostQuery(ids: [])) == [])
            #expect(try await store.query(PostQuery(userIds: [])) == [])
            #expect(try await store.query(PostQuery(userIds: [42])) == [])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func querySortsEveryWayWithTiesById(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ async throws in
            let posts = [
                Post(userId: 2, id: 1, title: "b", body: ""),
                Post(userId: 1, id: 2, title: "a", body: ""),
                Post(userId: 2, id: 3, title: "B", body: ""),
                Post(userId: 1, id: 4, title: "b", body: ""),
                Post(userId: 3, id: 5, title: "é", body: ""),
                Post(userId: 3, id: 6, title: "e\u{301}", body: ""),
                Post(userId: 0, id: 7, title: "", body: ""),
            ]
            _ = try await store.upsert(posts)
            func ids(_ sort: PostQuery.Sort) async throws -> [Int] {
                try await store.query(PostQuery(sort: sort)).map(\.id)
            }
            #expect(try await ids(.idAscending) == [1, 2, 3, 4, 5, 6, 7])
            #expect(try await ids(.idDescending) == [7, 6, 5, 4, 3, 2, 1])
            // Code point order: "" < "B" < "a" < "b" < "e\u{301}" < "é" (U+0065 before U+00E9).
            #expect(try await ids(.title) == [7, 3, 2, 1, 4, 6, 5])
            #expect(try await ids(.user) == [7, 2, 4, 1, 3, 5, 6])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func queryWindowsAfterSorting(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ async throws in
            _ = try await store.upsert(SamplePosts.make(count: 10))
            #expect(try await store.query(PostQuery(sort: .idDescending, limit: 3)).map(\.id) == [10, 9, 8])
            #expect(try await store.query(PostQuery(limit: 3, offset: 8)).map(\.id) == [9, 10])
            #expect(try await store.query(PostQuery(offset: 10)) == [])
            #expect(try await store.query(PostQuery(offset: Int.max)) == [])
            #expect(try await store.query(PostQuery(limit: 0)) == [])
            #expect(try await store.query(PostQuery(limit: Int.max, offset: 9)).map(\.id) == [10])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func negativeWindowsAreInvalid(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ async throws in
            let limit = await #expect(throws: PostStoreError.self) { try await store.query(PostQuery(limit: -1)) }
            #expect(limit?.code == .invalidQuery)
            let offset = await #expect(throws: PostStoreError.self) { try await store.query(PostQuery(offset: -5)) }
            #expect(offset?.code == .invalidQuery)
            #expect(offset?.message.contains("-5") == true)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func searchFollowsTheDefinedSemantics(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ async throws in
            _ = try await store.upsert(SamplePosts.tricky)
            func ids(_ search: String) async throws -> [Int] {
                try await store.query(PostQuery(search: search)).map(\.id)
            }
            #expect(try await ids("").count == SamplePosts.tricky.count)
            #expect(try await ids(" \n\t ").count == SamplePosts.tricky.count)
            #expect(try await ids("EMOJI") == [1])
            #expect(try await ids("😀") == [1])
            #expect(try await ids("party smile") == [1], "terms may match in title and body separately")
            #expect(try await ids("party nothere") == [], "every term must match")
            #expect(try await ids("한국") == [2])
            #expect(try await ids("세") == [2], "a one-character term")
            #expect(try await ids("café") == [3], "precomposed matches precomposed only")
            #expect(try await ids("cafe") == [4], "code points: 'cafe' is a prefix of the decomposed form")
            #expect(try await ids("e\u{301}") == [4])
            #expect(try await ids("100%") == [5])
            #expect(try await ids("of_the") == [5])
            #expect(try await ids("%") == [5])
            #expect(try await ids("_") == [5])
            #expect(try await ids("\"double\"") == [5])
            #expect(try await ids("\\") == [5])
            #expect(try await ids("'); drop table") == [6])
            #expect(try await ids("nul\u{0}in") == [7])
            #expect(try await ids("\u{0}") == [7])
            #expect(try await ids("strasse") == [-9])
            #expect(try await ids("STRAßE") == [-9])
            #expect(try await ids("İstanbul") == [-9])
            #expect(try await ids("istanbul") == [], "İ lowercases to i + U+0307")
            #expect(try await ids("min") == [Int.min, Int.max])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func searchCombinesWithFiltersOrderAndWindow(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ async throws in
            let posts = SamplePosts.make(count: 100)
            _ = try await store.upsert(posts)
            let query = PostQuery(userIds: [1, 2, 3, 4], search: "Dolor", sort: .title, limit: 5, offset: 2)
            let expected = try query.evaluate(over: Dictionary(uniqueKeysWithValues: posts.map { ($0.id, $0) }))
            #expect(expected.count == 5)
            #expect(try await store.query(query) == expected)
        }
    }

    // MARK: - Sync state

    @Test(arguments: StoreKind.allCases)
    func syncStatesRoundTripOnePerSourceMostRecentFirst(kind: StoreKind) async throws {
        try await withStore(kind) { store, directory async throws in
            let early = SyncState(source: "file:b.json", syncedAt: Date(timeIntervalSince1970: 1_000), fetched: 1)
            let late = SyncState(
                source: "https://example.com/posts?a=\"1\"",
                etag: "W/\"abc\"",
                syncedAt: Date(timeIntervalSince1970: 1_700_000_000.123456),
                fetched: 100,
                inserted: 10,
                updated: 20,
                unchanged: 70,
                deleted: 3
            )
            try await store.saveSyncState(early)
            try await store.saveSyncState(late)
            #expect(try await store.syncStates() == [late, early])
            #expect(try await store.syncState(for: late.source) == late)
            #expect(try await store.syncState(for: late.source)?.syncedAtMilliseconds == 1_700_000_000_123)

            var replaced = early
            replaced.etag = "\"new\""
            replaced.syncedAt = Date(timeIntervalSince1970: 2_000_000_000)
            try await store.saveSyncState(replaced)
            #expect(try await store.syncStates() == [replaced, late])
            #expect(try await store.count() == 0, "saving sync state writes no post")
            if let reopened = try kind.reopen(in: directory) {
                #expect(try await reopened.syncStates() == [replaced, late])
            }
        }
    }

    @Test(arguments: StoreKind.allCases)
    func sourcesDifferingOnlyInNormalizationAreTwoSources(kind: StoreKind) async throws {
        try await withStore(kind) { store, directory async throws in
            let composed = SyncState(source: "caf\u{E9}.json", etag: "1", syncedAt: Date(timeIntervalSince1970: 1))
            let decomposed = SyncState(source: "cafe\u{301}.json", etag: "2", syncedAt: Date(timeIntervalSince1970: 2))
            try await store.saveSyncState(composed)
            try await store.saveSyncState(decomposed)
            let reopened = try kind.reopen(in: directory) ?? store
            #expect(try await reopened.syncStates().map(\.etag) == ["2", "1"])
            #expect(try await reopened.syncState(for: composed.source)?.etag == "1")
            #expect(
                try await reopened.syncState(for: decomposed.source).map { Array($0.source.utf8) }
                    == Array(decomposed.source.utf8)
            )
        }
    }

    /// An ETag is compared byte for byte, as a server compares `If-None-Match`: a state whose ETag differs from the
    /// saved one only in Unicode normalization replaces it, and reads back with exactly its bytes.
    @Test(arguments: StoreKind.allCases)
    func eTagsDifferingOnlyInNormalizationAreTwoETags(kind: StoreKind) async throws {
        try await withStore(kind) { store, directory async throws in
            let date = Date(timeIntervalSince1970: 1)
            let composed = SyncState(source: "s", etag: "\"caf\u{E9}\"", syncedAt: date, fetched: 3)
            let decomposed = SyncState(source: "s", etag: "\"cafe\u{301}\"", syncedAt: date, fetched: 3)
            try await store.saveSyncState(composed)
            try await store.saveSyncState(decomposed)
            let reopened = try kind.reopen(in: directory) ?? store
            for reader in [store, reopened] {
                let saved = try #require(try await reader.syncState(for: "s"))
                #expect(saved.etag.map { Array($0.utf8) } == decomposed.etag.map { Array($0.utf8) })
                #expect(saved == decomposed && saved != composed)
            }
        }
    }

    // MARK: - Persistence and concurrency

    @Test(arguments: StoreKind.allCases.filter(\.isPersistent))
    func aSecondInstanceSeesEveryWrite(kind: StoreKind) async throws {
        try await withStore(kind) { store, directory async throws in
            let other = try #require(try kind.reopen(in: directory))
            _ = try await store.upsert(SamplePosts.make(count: 3))
            #expect(try await other.count() == 3)
            _ = try await other.delete(ids: [1])
            #expect(try await store.query(.all).map(\.id) == [2, 3])
        }
    }

    /// Two instances on one file stand in for two processes (SQLite connections and `flock` locks are per open
    /// file, not per process).
    @Test(arguments: StoreKind.allCases.filter(\.isPersistent))
    func twoInstancesWritingAtOnceLoseNothing(kind: StoreKind) async throws {
        try await withStore(kind) { first, directory async throws in
            let second = try #require(try kind.reopen(in: directory))
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (offset, store) in [first, second].enumerated() {
                    group.addTask {
                        for batch in 0..<20 {
                            var posts = SamplePosts.make(count: 4, firstId: offset * 1000 + batch * 4 + 1)
                            posts.append(Post(userId: 0, id: 0, title: "shared \(offset)-\(batch)", body: ""))
                            try await store.upsert(posts)
                        }
                    }
                }
                try await group.waitForAll()
            }
            #expect(try await first.count() == 161)
            #expect(try await second.count() == 161)
            #expect(try await first.query(PostQuery(search: "shared")).map(\.id) == [0])
            #expect(try await second.query(PostQuery(ids: [1, 1001, 1080])).count == 3)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func concurrentWritersOnOneInstanceLoseNothing(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ async throws in
            try await withThrowingTaskGroup(of: WriteSummary.self) { group in
                for batch in 0..<8 {
                    group.addTask { try await store.upsert(SamplePosts.make(count: 10, firstId: batch * 10 + 1)) }
                }
                var inserted = 0
                for try await summary in group { inserted += summary.inserted }
                #expect(inserted == 80)
            }
            #expect(try await store.count() == 80)
        }
    }

    /// Readers beside writers, on one instance and (for file engines) a second one standing in for another process:
    /// every read sees one whole write — all 50 posts carry the same write's title — never a mix.
    @Test(arguments: StoreKind.allCases)
    func readersBesideWritersSeeWholeWritesOnly(kind: StoreKind) async throws {
        try await withStore(kind) { store, directory async throws in
            let other = kind.isPersistent ? try #require(try kind.reopen(in: directory)) : store
            @Sendable func write(_ writer: Int, _ round: Int) -> [Post] {
                SamplePosts.make(count: 50).map {
                    Post(userId: $0.userId, id: $0.id, title: "w\(writer) r\(round)", body: $0.body)
                }
            }
            try await store.upsert(write(0, 0))
            try await withThrowingTaskGroup(of: Void.self) { group in
                for writer in 1...4 {
                    group.addTask {
                        for round in 1...15 {
                            try await (writer.isMultiple(of: 2) ? other : store).upsert(write(writer, round))
                        }
                    }
                }
                for reader in 1...8 {
                    group.addTask {
                        for _ in 1...30 {
                            let posts = try await (reader.isMultiple(of: 2) ? other : store).query(.all)
                            #expect(posts.count == 50)
                            #expect(Set(posts.map(\.title)).count == 1, "a read saw a mix: \(Set(posts.map(\.title)))")
                        }
                    }
                }
                try await group.waitForAll()
            }
            #expect(Set(try await store.query(.all).map(\.title)).count == 1)
        }
    }

    /// A sync's time is taken before it waits for the write lock, so two syncs can commit in the other order: the
    /// one committed last must still be the newest state (what `poststore info` shows as the last sync).
    @Test(arguments: StoreKind.allCases)
    func theSyncCommittedLastIsTheNewestEvenWithAnEarlierTime(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ async throws in
            let later = Date(timeIntervalSince1970: 2_000_000)
            let earlier = Date(timeIntervalSince1970: 1_000_000)
            for (source, time) in [("b", later), ("a", earlier)] {
                try await store.apply(
                    PostChangeSet(
                        upserts: SamplePosts.make(count: 2),
                        syncState: SyncState(source: source, syncedAt: time),
                        syncStateRecording: .recordingSummary
                    )
                )
            }
            let states = try await store.syncStates()
            #expect(states.map(\.source) == ["a", "b"])
            #expect(states.first?.syncedAtMilliseconds == 2_000_000_001)
            // A state given as it is keeps its time.
            try await store.apply(PostChangeSet(syncState: SyncState(source: "c", syncedAt: earlier)))
            #expect(try await store.syncState(for: "c")?.syncedAt == earlier)
        }
    }
}
