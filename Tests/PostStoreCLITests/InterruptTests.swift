import Foundation
import PostStore
import PostStoreLive
import PostStoreTestSupport
import PostStoreTesting
import Testing

@testable import PostStoreCLI

/// Stopping a sync halfway — Ctrl-C, SIGTERM or SIGHUP — prints one line and leaves the store as it was before the sync, or
/// as the sync would have left it, never in between; the process still ends by the signal.
@Suite struct InterruptTests {
    @Test(arguments: [
        ("posts.sqlite", SIGTERM), ("posts.sqlite", SIGINT), ("posts.sqlite", SIGHUP), ("json:posts.json", SIGTERM),
    ])
    func anInterruptedSyncLeavesTheStoreWhole(store: String, signal: Int32) async throws {
        let sandbox = try Sandbox()
        try await sandbox.seed(SamplePosts.make(count: 100), into: store)
        // Big enough that the sync is still reading or writing when the signal comes; built off the pool's threads.
        try await onOwnThread {
            var large = SamplePosts.make(count: 150_000)
            for index in large.indices where index % 2 == 0 { large[index].title += " (changed)" }
            try sandbox.write(large, to: "large.json")
        }

        let result = try await sandbox.run(
            ["sync", "--from", "large.json", "--store", store],
            interrupt: (after: .milliseconds(300), signal: signal)
        )
        // The sync takes well over a second here (about 2 s on a fast machine), so the signal lands mid-sync.
        #expect(result.killedBySignal && result.status == signal, "the sync was not interrupted: \(result)")
        let name = [SIGINT: "SIGINT", SIGTERM: "SIGTERM", SIGHUP: "SIGHUP"][signal] ?? "\(signal)"
        #expect(
            result.errorLines == [
                "poststore: stopped by \(name); no store was left half-written (unfinished work is not applied)."
            ],
            "\(result)"
        )

        let after = try await sandbox.run(["query", "--store", store, "--format", "json"])
        #expect(after.exitCode == 0, "\(after)")
        let posts = try PostJSON.decode(after.standardOutput)
        #expect(posts == SamplePosts.make(count: 100), "the store must be as it was before the sync")
    }

    /// A signal after the write has committed changes nothing: the store holds the write, so the command finishes,
    /// prints its report and exits 0 (a script must not take a committed sync for a failed one). The command runs in
    /// this process with a gate of its own (``CommitGate``), and the signal is delivered to it right after the
    /// commit, as the process's handler delivers one, so it lands there every time, whatever the machine's speed.
    @Test(arguments: [
        (Command.sync, "posts.json", "existing.sqlite", SIGTERM, [1...20]),
        (Command.sync, "posts.json", "new.sqlite", SIGTERM, [1...20]),
        (Command.sync, "posts.json", "json:existing.json", SIGINT, [1...20, 100...109]),
        (Command.sync, "posts.json", "json:new.json", SIGHUP, [1...20]),
        (Command.copy, "existing.sqlite", "json:new.json", SIGTERM, [1...10]),
        (Command.copy, "json:existing.json", "existing.sqlite", SIGINT, [1...10, 100...109]),
    ])
    func aSignalAfterTheCommitLetsTheCommandFinish(
        command: Command,
        from: String,
        store: String,
        signal: Int32,
        ids: [ClosedRange<Int>]
    ) async throws {
        let sandbox = try Sandbox()
        try await sandbox.seed(SamplePosts.make(count: 10), into: "existing.sqlite")
        try await sandbox.seed(SamplePosts.make(count: 10, firstId: 100), into: "json:existing.json")
        try sandbox.write(SamplePosts.make(count: 20), to: "posts.json")
        let spy = SignalSpy()
        let write = spy.write(deliveringAfterCommit: signal)
        let to = try StoreSpec(option: Self.absolute(store, in: sandbox))
        let progress = ProgressDisplay(terminal: nil)

        switch command {
        case .sync:
            let parsed = try SyncCommand.parse(["--from", sandbox.path(from), "--store", to.description])
            let source = try PostStoreConfiguration.Source.resolve(parsed.from, pageSize: nil, environment: [:])
            let sync = CommandLineSync(
                command: parsed,
                spec: to,
                source: source,
                isDefaultStore: false,
                interruptSafeWrite: write
            )
            try sync.prepareStoreFolder()
            let report = try await sync.run(progress: progress)
            #expect(report.fetched == 20 && !report.dryRun, "\(report)")
        case .copy:
            let source = try StoreSpec(option: Self.absolute(from, in: sandbox))
            let posts = try await StoreOptions.store(source, openMode: .openExisting).query(.all)
            let summary = try await CopyCommand.write(posts, into: to, progress: progress, interruptSafeWrite: write)
            #expect(summary.inserted + summary.updated + summary.unchanged == posts.count, "\(summary)")
        }

        #expect(spy.actions == [.letThrough], "the signal came after the commit and let the command finish")
        #expect(spy.stops.isEmpty)
        let expected = ids.flatMap { SamplePosts.make(count: $0.count, firstId: $0.lowerBound) }
        #expect(try await sandbox.posts(in: store) == expected, "the committed write must be kept")
    }

    /// The commands whose writes commit.
    enum Command: Sendable {
        case sync, copy
    }

    /// `store` (a store option relative to the sandbox, `json:` or not) with its path made absolute: this process
    /// does not run in the sandbox.
    private static func absolute(_ store: String, in sandbox: Sandbox) -> String {
        store.hasPrefix("json:") ? "json:" + sandbox.path(String(store.dropFirst(5))) : sandbox.path(store)
    }
}
