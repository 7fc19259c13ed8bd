import Foundation
import PostStore
import PostStoreTestSupport
import PostStoreTesting
import Testing

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
    /// prints its report and exits 0 (a script must not take a committed sync for a failed one). The command is
    /// told to pause right after its commit (`POSTSTORE_TEST_PAUSE_AFTER_COMMIT`) until the signal comes, so the
    /// signal lands there every time, whatever the machine's speed.
    @Test(arguments: [
        (["sync", "--from", "posts.json", "--store", "existing.sqlite"], SIGTERM, "existing.sqlite", [1...20]),
        (["sync", "--from", "posts.json", "--store", "new.sqlite"], SIGTERM, "new.sqlite", [1...20]),
        (
            ["sync", "--from", "posts.json", "--store", "json:existing.json"], SIGINT, "json:existing.json",
            [1...20, 100...109]
        ),
        (
            ["sync", "--from", "posts.json", "--store", "json:new.json", "--format", "json"], SIGHUP, "json:new.json",
            [1...20]
        ),
        (
            ["copy", "--from-store", "existing.sqlite", "--to-store", "json:new.json"], SIGTERM, "json:new.json",
            [1...10]
        ),
        (
            ["copy", "--from-store", "json:existing.json", "--to-store", "existing.sqlite"], SIGINT, "existing.sqlite",
            [1...10, 100...109]
        ),
    ])
    func aSignalAfterTheCommitLetsTheCommandFinish(
        arguments: [String],
        signal: Int32,
        store: String,
        ids: [ClosedRange<Int>]
    ) async throws {
        let sandbox = try Sandbox()
        try await sandbox.seed(SamplePosts.make(count: 10), into: "existing.sqlite")
        try await sandbox.seed(SamplePosts.make(count: 10, firstId: 100), into: "json:existing.json")
        try sandbox.write(SamplePosts.make(count: 20), to: "posts.json")
        let marker = sandbox.path("committed")
        let control = ChildControl()

        async let running = sandbox.run(
            arguments,
            environment: ["POSTSTORE_TEST_PAUSE_AFTER_COMMIT": marker],
            control: control
        )
        let deadline = ContinuousClock.now + .seconds(120)
        while !FileManager.default.fileExists(atPath: marker), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        let signalled = control.send(signal)
        let result = try await running

        #expect(signalled, "the command ended before its commit: \(result)")
        #expect(result.exitCode == 0, "\(result)")
        #expect(result.standardError.isEmpty, "\(result)")
        #expect(result.outputLines.count == 1, "\(result)")
        let expected = ids.flatMap { SamplePosts.make(count: $0.count, firstId: $0.lowerBound) }
        #expect(try await sandbox.posts(in: store) == expected, "the committed write must be kept")
    }
}
