import Foundation
import PostStore
import PostStoreTestSupport
import PostStoreTesting
import Synchronization
import Testing

/// The progress a sync reports, on every engine, from a real file: its phases in order, each with counts that only
/// grow and one finished update at its end, and nothing after a failure.
@Suite struct SyncProgressTests {
    /// More posts than SQLite's index build counts between two reports and than one batch of the file reader, so
    /// both report steps; few enough that the five engines' syncs, run at once on the test runner's few threads, do
    /// not hold them long under the thread sanitizer.
    private static let postCount = 12_000

    /// The phases each engine reports after the file's reading, for a first sync and for a prune.
    private static func phases(of kind: StoreKind, pruning: Bool) -> [WorkProgress.Phase] {
        switch kind.name {
        case "sqlite": pruning ? [.reading, .pruning] : [.reading, .indexing]
        case "sqliteWithoutSearchIndex": pruning ? [.reading, .pruning] : [.reading]
        // PostgreSQL prunes first (a change set over its deletion limit is refused before any write), then compares
        // and writes in one statement, which runs even when nothing turns out changed.
        case "postgres": pruning ? [.reading, .pruning, .writing] : [.reading, .indexing]
        default: [.reading, .writing]  // read whole, then written in one step
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aFirstSyncAndAPruneReportTheirPhasesInOrderEachEndingOnce(_ kind: StoreKind) async throws {
        try await withStore(kind) { store, directory in
            let posts = SamplePosts.make(count: Self.postCount)
            let file = directory.file("posts.json")
            try SamplePosts.json(posts).write(to: URL(fileURLWithPath: file))

            let first = try await Self.sync(file, into: store)
            #expect(first.phases == Self.phases(of: kind, pruning: false))
            try Self.checkEveryPhase(first.updates, readingPosts: Self.postCount, fileBytes: Self.size(of: file))
            #expect(first.updates.first { $0.phase == .indexing }?.total ?? Self.postCount == Self.postCount)
            #expect(first.events.last == .applied(WriteSummary(inserted: Self.postCount)))

            // A tenth of the posts gone from the source: a prune deletes them.
            try SamplePosts.json(Array(posts.dropLast(Self.postCount / 10))).write(to: URL(fileURLWithPath: file))
            let prune = try await Self.sync(file, into: store, prune: true)
            #expect(prune.phases == Self.phases(of: kind, pruning: true))
            try Self.checkEveryPhase(
                prune.updates,
                readingPosts: Self.postCount - Self.postCount / 10,
                fileBytes: Self.size(of: file)
            )
            if let pruning = prune.updates.last(where: { $0.phase == .pruning }) {
                #expect(pruning.completed == Self.postCount / 10 && pruning.total == Self.postCount / 10)
            }
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aFailedSyncReportsNoUpdateAfterItsErrorAndItsReadingNeverFinishes(_ kind: StoreKind) async throws {
        try await withStore(kind) { store, directory in
            // A bad record after two batches of the reader.
            var lines = String(decoding: SamplePosts.jsonLines(SamplePosts.make(count: 10_000)), as: UTF8.self)
                .components(separatedBy: "\n")
            lines[9_000] = #"{"userId": 1, "id": "nine thousand", "title": "", "body": ""}"#
            let file = directory.file("posts.ndjson")
            try Data(lines.joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: file))
            let service = SyncService(dataService: FilePostDataService(path: file), store: store, clock: TestClock())
            let log = EventLog()

            let (outcome, isCallbackHeld) = await Self.syncAlone(service, recordingIn: log)

            #expect(throws: PostStoreError.self) { try outcome.get() }
            // The sync reports in its own task: every update came before the error ended that task. And nothing
            // holds the callback now, so nothing can call it later.
            #expect(log.entries.allSatisfy { $0.task == log.syncTask }, "\(log.entries.map(\.task))")
            #expect(!isCallbackHeld, "the progress callback outlived the sync")
            #expect(!log.events.isEmpty)
            #expect(!log.events.contains { if case .working(let progress) = $0 { progress.isFinished } else { true } })
            #expect(try await store.count() == 0)
        }
    }

    // MARK: - Support

    private struct Run {
        let events: [SyncProgress]

        var updates: [WorkProgress] {
            events.compactMap { if case .working(let progress) = $0 { progress } else { nil } }
        }

        /// The phases in the order they began.
        var phases: [WorkProgress.Phase] {
            updates.reduce(into: []) { phases, update in
                if phases.last != update.phase { phases.append(update.phase) }
            }
        }
    }

    private static func sync(_ file: String, into store: any PostStoreProtocol, prune: Bool = false) async throws -> Run
    {
        let log = EventLog()
        let service = SyncService(dataService: FilePostDataService(path: file), store: store, clock: TestClock())
        try await service.sync(SyncOptions(prune: prune, deletionLimit: .unlimited), progress: log.record)
        return Run(events: log.events)
    }

    /// Each phase: one run of updates (never resumed later), counts and bytes that never shrink and stay within
    /// their totals, exactly one finished update and it the last, reaching its total.
    private static func checkEveryPhase(_ updates: [WorkProgress], readingPosts: Int, fileBytes: Int) throws {
        var seen: Set<WorkProgress.Phase> = []
        var index = 0
        while index < updates.count {
            let phase = updates[index].phase
            #expect(seen.insert(phase).inserted, "\(phase) began twice")
            var run: [WorkProgress] = []
            while index < updates.count, updates[index].phase == phase {
                run.append(updates[index])
                index += 1
            }
            for (earlier, later) in zip(run, run.dropFirst()) {
                #expect(earlier.completed <= later.completed, "\(phase): \(earlier) then \(later)")
                #expect((earlier.bytes ?? 0) <= (later.bytes ?? 0), "\(phase): \(earlier) then \(later)")
            }
            for update in run {
                if let total = update.total { #expect(update.completed <= total, "\(update)") }
                if let bytes = update.bytes, let total = update.totalBytes { #expect(bytes <= total, "\(update)") }
            }
            #expect(run.filter(\.isFinished).count == 1 && run.last?.isFinished == true, "\(phase): \(run)")
            let last = try #require(run.last)
            #expect(last.completed == last.total, "\(last)")
            if phase == .reading {
                #expect(last.completed == readingPosts)
                #expect(last.bytes == fileBytes && last.totalBytes == fileBytes, "\(last)")
            }
        }
    }

    private static func size(of file: String) throws -> Int {
        try #require(try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int)
    }

    /// Runs a sync in a task of its own, named `log.syncTask`, its progress recorded in `log`; returns how it ended
    /// and whether anything still holds its progress callback once it has.
    private static func syncAlone(
        _ service: SyncService,
        recordingIn log: EventLog
    ) async -> (Result<SyncReport, any Error>, isCallbackHeld: Bool) {
        weak var recorder: ProgressRecorder?
        let outcome = await sync(service, recordingIn: log) { recorder = $0 }
        return (outcome, recorder != nil)
    }

    /// The sync of ``syncAlone(_:recordingIn:)``, whose callback's recorder `watch` sees and only the sync keeps.
    private static func sync(
        _ service: SyncService,
        recordingIn log: EventLog,
        watch: (ProgressRecorder) -> Void
    ) async -> Result<SyncReport, any Error> {
        let recorder = ProgressRecorder(log: log)
        watch(recorder)
        return await Task(name: log.syncTask) { try await service.sync(progress: recorder.record) }.result
    }
}

/// The events a sync reported, in order, each with the name of the task that reported it.
private final class EventLog: Sendable {
    /// A name for a task that runs a sync, unique to this log.
    let syncTask = "sync \(UUID())"
    private let storage = Mutex<[(event: SyncProgress, task: String?)]>([])
    var entries: [(event: SyncProgress, task: String?)] { storage.withLock { $0 } }
    var events: [SyncProgress] { entries.map(\.event) }
    @Sendable func record(_ event: SyncProgress) { storage.withLock { $0.append((event, Task.name)) } }
}

/// A progress callback as an object, so that a test can see when nothing holds it any longer.
private final class ProgressRecorder: Sendable {
    private let log: EventLog
    init(log: EventLog) { self.log = log }
    @Sendable func record(_ event: SyncProgress) { log.record(event) }
}
