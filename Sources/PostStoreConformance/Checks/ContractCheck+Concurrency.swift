import Foundation
import PostStore
import PostStoreTesting
import Testing

extension ContractCheck {
    /// A second instance on the same data, as another process, sees the first one's writes, and the first sees its.
    static let aSecondInstanceSeesEveryWrite = ContractCheck(
        "aSecondInstanceSeesEveryWrite",
        "A second instance on the same data, as another process, sees the first one's writes, and the first sees its."
    ) { store, run async throws in
        let other = try await run.secondInstance()
        _ = try await store.upsert(SamplePosts.make(count: 3))
        #expect(try await other.count() == 3)
        _ = try await other.delete(ids: [1])
        #expect(try await store.query(.all).map(\.id) == [2, 3])
    }

    /// Two instances on the same data writing at once lose no write.
    ///
    /// Two instances on one file stand in for two processes (SQLite connections and `flock` locks are per open
    /// file, not per process).
    static let twoInstancesWritingAtOnceLoseNothing = ContractCheck(
        "twoInstancesWritingAtOnceLoseNothing",
        "Two instances on the same data writing at once lose no write."
    ) { first, run async throws in
        let second = try await run.secondInstance()
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

    /// Concurrent writes on one instance lose nothing.
    static let concurrentWritersOnOneInstanceLoseNothing = ContractCheck(
        "concurrentWritersOnOneInstanceLoseNothing",
        "Concurrent writes on one instance lose nothing."
    ) { store, _ async throws in
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

    /// Readers beside writers see whole writes only, never a mix of two.
    ///
    /// Readers beside writers, on one instance and (for engines that can open one) a second one standing in for
    /// another process: every read sees one whole write — all 50 posts carry the same write's title — never a mix.
    static let readersBesideWritersSeeWholeWritesOnly = ContractCheck(
        "readersBesideWritersSeeWholeWritesOnly",
        "Readers beside writers see whole writes only, never a mix of two."
    ) { store, run async throws in
        let other = try await run.secondInstance(
            orSame: store,
            for: "half of the reads and writes through a second instance"
        )
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

    /// The sync committed last is the newest state, even when its time is earlier.
    ///
    /// A sync's time is taken before it waits for the write lock, so two syncs can commit in the other order: the
    /// one committed last must still be the newest state (what `poststore info` shows as the last sync).
    static let theSyncCommittedLastIsTheNewestEvenWithAnEarlierTime = ContractCheck(
        "theSyncCommittedLastIsTheNewestEvenWithAnEarlierTime",
        "The sync committed last is the newest state, even when its time is earlier."
    ) { store, _ async throws in
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
