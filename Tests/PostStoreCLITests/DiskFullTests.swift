import Foundation
import PostStore
import PostStoreTestSupport
import PostStoreTesting
import Testing

/// A disk that fills up mid-sync, played with `ulimit -f` (a write past the limit fails with `EFBIG`, as one on a
/// full disk fails with `ENOSPC`): the sync fails with exit 74 and one line, and the store keeps every old post,
/// passes its integrity check and has no temporary file left over.
@Suite struct DiskFullTests {
    @Test(arguments: ["posts.sqlite", "json:posts.json"])
    func aDiskThatFillsUpMidSyncLosesNothing(store: String) async throws {
        let sandbox = try Sandbox()
        let old = SamplePosts.make(count: 100)
        try await sandbox.seed(old, into: store)
        // About 6 MB as a store; built off the pool's threads.
        try await onOwnThread { try sandbox.write(SamplePosts.make(count: 20_000), to: "large.json") }
        // The lock file is the JSON engine's sidecar, made by its first write into an existing store.
        let entries = { try sandbox.directory.entries().filter { $0 != "posts.json.lock" }.sorted() }
        let entriesBefore = try entries()

        let result = try await sandbox.run(
            ["sync", "--from", "large.json", "--store", store],
            fileSizeLimit: 1024
        )

        #expect(result.exitCode == 74, "\(result)")
        #expect(result.errorLines.count == 1, "\(result)")
        #expect(result.errorOutput.contains("posts."), "\(result)")
        #expect(try await sandbox.posts(in: store) == old)
        if store.hasPrefix("json:") {
            #expect(try entries() == entriesBefore, "a temporary file was left behind")
        } else {
            #expect(try sqlite3(sandbox.path("posts.sqlite"), "PRAGMA integrity_check") == "ok")
        }
        // Once there is room again, the same sync succeeds.
        let retried = try await sandbox.run(["sync", "--from", "large.json", "--store", store])
        #expect(retried.exitCode == 0, "\(retried)")
    }
}
