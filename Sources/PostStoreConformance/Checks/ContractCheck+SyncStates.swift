import Foundation
import PostStore
import PostStoreTesting
import Testing

extension ContractCheck {
    /// Sync states read back exactly as saved, one per source, the most recent first.
    static let syncStatesRoundTripOnePerSourceMostRecentFirst = ContractCheck(
        "syncStatesRoundTripOnePerSourceMostRecentFirst",
        "Sync states read back exactly as saved, one per source, the most recent first."
    ) { store, run async throws in
        let early = SyncState(source: "file:b.json", syncedAt: Date(timeIntervalSince1970: 1_000), fetched: 1)
        var late = SyncState(
            source: "https://example.com/posts?a=\"1\"",
            etag: "W/\"abc\"",
            syncedAt: Date(timeIntervalSince1970: 1_700_000_000.123456),
            fetched: 100,
            inserted: 10,
            updated: 20,
            unchanged: 70,
            deleted: 3
        )
        late.changeToken = ChangeToken(storeID: "0a1b2c", revision: 123_456_789_012)
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
        if let reopened = try await run.secondInstance(for: "reading the states back through a second instance") {
            #expect(try await reopened.syncStates() == [replaced, late])
        }
    }

    /// Sources that differ only in Unicode normalization are two sources.
    static let sourcesDifferingOnlyInNormalizationAreTwoSources = ContractCheck(
        "sourcesDifferingOnlyInNormalizationAreTwoSources",
        "Sources that differ only in Unicode normalization are two sources."
    ) { store, run async throws in
        let composed = SyncState(source: "caf\u{E9}.json", etag: "1", syncedAt: Date(timeIntervalSince1970: 1))
        let decomposed = SyncState(source: "cafe\u{301}.json", etag: "2", syncedAt: Date(timeIntervalSince1970: 2))
        try await store.saveSyncState(composed)
        try await store.saveSyncState(decomposed)
        let reopened = try await run.secondInstance(orSame: store, for: "reading the states through a second instance")
        #expect(try await reopened.syncStates().map(\.etag) == ["2", "1"])
        #expect(try await reopened.syncState(for: composed.source)?.etag == "1")
        #expect(
            try await reopened.syncState(for: decomposed.source).map { Array($0.source.utf8) }
                == Array(decomposed.source.utf8)
        )
    }

    /// An ETag that differs only in Unicode normalization replaces the saved one, and reads back byte for byte.
    ///
    /// An ETag is compared byte for byte, as a server compares `If-None-Match`: a state whose ETag differs from the
    /// saved one only in Unicode normalization replaces it, and reads back with exactly its bytes.
    static let eTagsDifferingOnlyInNormalizationAreTwoETags = ContractCheck(
        "eTagsDifferingOnlyInNormalizationAreTwoETags",
        "An ETag that differs only in Unicode normalization replaces the saved one, and reads back byte for byte."
    ) { store, run async throws in
        let date = Date(timeIntervalSince1970: 1)
        let composed = SyncState(source: "s", etag: "\"caf\u{E9}\"", syncedAt: date, fetched: 3)
        let decomposed = SyncState(source: "s", etag: "\"cafe\u{301}\"", syncedAt: date, fetched: 3)
        try await store.saveSyncState(composed)
        try await store.saveSyncState(decomposed)
        let reopened = try await run.secondInstance(orSame: store, for: "reading the states through a second instance")
        for reader in [store, reopened] {
            let saved = try #require(try await reader.syncState(for: "s"))
            #expect(saved.etag.map { Array($0.utf8) } == decomposed.etag.map { Array($0.utf8) })
            #expect(saved == decomposed && saved != composed)
        }
    }
}

extension ContractCheck {
    /// A store's post count and its last sync come from one state of its data.
    ///
    /// `poststore info` shows a store's post count and its last sync; every engine reads both from one state
    /// (``StoreDescribing/describe()``), so a reader beside a writer (another instance on the same data, as another
    /// process would be) never pairs one sync's count with another sync's state (the concurrency soak once found the
    /// JSON engine doing so). The writer writes as `SyncService` does: a pruning, forced, streamed change set whose
    /// sync state records its summary.
    static let theCountAndTheLastSyncComeFromOneState = ContractCheck(
        "theCountAndTheLastSyncComeFromOneState",
        "A store's post count and its last sync, as it describes itself, come from one state of its data."
    ) { writer, run async throws in
        let reader = try run.describing(
            try await run.secondInstance(orSame: writer, for: "describing the store through a second instance")
        )
        let sources = [("a", SamplePosts.make(count: 30)), ("b", SamplePosts.make(count: 47))]

        async let syncs: Void = {
            for round in 0..<40 {
                let (source, posts) = sources[round % 2]
                try await writer.apply(
                    PostChangeSet(
                        prune: true,
                        deletionLimit: .unlimited,
                        syncState: SyncState(source: source, syncedAt: Date()),
                        syncStateRecording: .recordingSummary
                    ),
                    streaming: PostStream(posts)
                )
            }
        }()
        var mismatches: [String] = []
        for _ in 0..<300 {
            let description = try await reader.describe()
            let (count, states) = (description.count, description.syncStates)
            if let last = states.first, last.fetched != count {
                mismatches.append("\(count) posts with the state of \(last.source) (\(last.fetched) fetched)")
            }
            await Task.yield()
        }
        try await syncs

        #expect(mismatches.isEmpty, "\(mismatches.prefix(3))")
        let description = try await reader.describe()
        let (count, states) = (description.count, description.syncStates)
        #expect(count == 47 && states.first?.source == "b" && states.count == 2)
    }
}
