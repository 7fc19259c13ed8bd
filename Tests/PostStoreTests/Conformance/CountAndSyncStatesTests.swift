import Foundation
import PostStoreLive
import PostStoreTestSupport
import PostStoreTesting
import Testing

@_spi(FileSystem) @testable import PostStore
@testable import PostStoreHTTP
@testable import PostStoreJSONFile
@testable import PostStoreSQLite

/// `poststore info` shows a store's post count and its last sync; every engine reads both from one state, so a
/// reader beside a writer (another instance on the same file, as another process would be) never pairs one sync's
/// count with another sync's state (the concurrency soak once found the JSON engine doing so).
@Suite struct CountAndSyncStatesTests {
    @Test(arguments: StoreKind.allCases)
    func theCountAndTheLastSyncComeFromOneState(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let writer = try kind.makeStore(in: directory)
        let reader = try #require((try kind.reopen(in: directory) ?? writer) as? any StoreDescribing)
        let sources = [("a", SamplePosts.make(count: 30)), ("b", SamplePosts.make(count: 47))]

        async let syncs: Void = {
            for round in 0..<40 {
                let (source, posts) = sources[round % 2]
                _ = try await SyncService(
                    dataService: StubPostDataService(source: source, posts: posts),
                    store: writer,
                    clock: SystemClock(),
                    logger: .silent
                ).sync(SyncOptions(prune: true, deletionLimit: .unlimited))
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
