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
}
