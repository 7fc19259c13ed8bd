import Foundation
import InMemoryLogging
import Logging
import PostStore
import PostStoreTesting
import Synchronization
import Testing

/// What a sync tells its caller, on the in-memory engine with stub data services and a test clock: progress events,
/// the report (timed on the injected clock, and its JSON) and one log entry. The sync scenarios on every engine are
/// `SyncServiceTests`, in PostStoreLiveTests.
@Suite struct SyncReportingTests {
    @Test func progressReportsDownloadingThenWritingThenApplied() async throws {
        let events = Mutex<[SyncProgress]>([])
        let source = StubPostDataService(posts: SamplePosts.make(count: 3))
        let service = SyncService(dataService: source, store: InMemoryPostStore(), clock: TestClock())

        try await service.sync { event in events.withLock { $0.append(event) } }

        #expect(
            events.withLock { $0 } == [
                .working(WorkProgress(phase: .downloading, completed: 0, total: 3, pages: 0)),
                .working(WorkProgress(phase: .downloading, completed: 3, total: 3, pages: 1, isFinished: true)),
                .working(WorkProgress(phase: .writing, completed: 0, total: 3)),
                .working(WorkProgress(phase: .writing, completed: 3, total: 3, isFinished: true)),
                .applied(WriteSummary(inserted: 3)),
            ]
        )
    }

    @Test func theReportMeasuresTheSyncOnTheInjectedClockAndEncodesAsJSON() async throws {
        let clock = TestClock()
        let source = SlowStubPostDataService(clock: clock, delay: .milliseconds(1500))
        let report = try await SyncService(
            dataService: source,
            store: InMemoryPostStore(),
            clock: clock
        ).sync()
        #expect(report.duration == .milliseconds(1500))

        let json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(report)) as? [String: Any]
        #expect(json?["durationSeconds"] as? Double == 1.5)
        #expect(json?["inserted"] as? Int == 2 && json?["source"] as? String == "slow")
        #expect(try JSONDecoder().decode(SyncReport.self, from: JSONEncoder().encode(report)) == report)
        for bad in ["1e300", "-1e300"] {
            var fields = try #require(json)
            fields["durationSeconds"] = Double(bad)
            let data = try JSONSerialization.data(withJSONObject: fields)
            #expect(throws: DecodingError.self) { try JSONDecoder().decode(SyncReport.self, from: data) }
        }
    }

    @Test func eachSyncIsLogged() async throws {
        let logs = InMemoryLogHandler()
        let logger = Logger(label: "test") { _ in logs }
        let source = StubPostDataService(posts: SamplePosts.make(count: 4))
        let service = SyncService(dataService: source, store: InMemoryPostStore(), clock: TestClock(), logger: logger)

        try await service.sync()

        let entry = try #require(logs.entries.first)
        #expect(logs.entries.count == 1)
        #expect(entry.level == .info && entry.message.description == "Synced")
        #expect(
            entry.metadata.mapValues(\.description) == [
                "source": "stub://posts", "dry-run": "false", "fetched": "4", "inserted": "4", "updated": "0",
                "unchanged": "0", "deleted": "0",
            ]
        )
    }
}

/// A data service whose fetch takes `delay` on the test clock.
private struct SlowStubPostDataService: PostDataService {
    let clock: TestClock
    let delay: Duration
    var source: String { "slow" }

    func streamPosts(_ request: PostFetchRequest) async throws -> PostStreamResult {
        try await clock.sleep(for: delay)
        return .posts(PostStream(SamplePosts.make(count: 2)), etag: nil, pages: 1)
    }
}
