import Foundation
import PostStoreTesting
import Testing

/// Mistakes a person makes at the shell: each gets one line, the documented code, and no stray files.
@Suite struct CarelessInputTests {
    @Test func aFolderAsTheSourceIsNoInputFile() async throws {
        let sandbox = try Sandbox()
        try FileManager.default.createDirectory(atPath: sandbox.path("posts"), withIntermediateDirectories: true)

        let result = try await sandbox.run(["sync", "--from", "posts", "--store", "store.sqlite"])

        #expect(result.exitCode == 66, "\(result)")
        #expect(result.errorLines == ["poststore: posts is a folder, not a file of posts."])
        #expect(!sandbox.exists("store.sqlite"))
    }

    @Test(arguments: ["missing/store.sqlite", "json:missing/store.json"])
    func aStoreInAMissingFolderSaysSo(store: String) async throws {
        let sandbox = try Sandbox()
        try sandbox.write(SamplePosts.make(count: 2), to: "posts.json")

        let result = try await sandbox.run(["sync", "--from", "posts.json", "--store", store])

        #expect(result.exitCode == 74, "\(result)")
        #expect(result.errorLines.count == 1 && result.errorOutput.contains("folder missing"), "\(result)")
        #expect(!sandbox.exists("missing"))
    }

    @Test func aDryRunIntoTheDefaultStoreCreatesNothing() async throws {
        let sandbox = try Sandbox()
        try sandbox.write(SamplePosts.make(count: 2), to: "posts.json")

        let result = try await sandbox.run(["sync", "--from", "posts.json", "--dry-run"])

        #expect(result.exitCode == 0, "\(result)")
        #expect(result.output.hasPrefix("Dry run: would sync posts.json"), "\(result)")
        #expect(!sandbox.exists("xdg-data"))
    }

    @Test func migratingAMissingStoreSaysToSyncFirst() async throws {
        let sandbox = try Sandbox()

        let result = try await sandbox.run(["migrate", "--store", "nope.sqlite"])

        #expect(result.exitCode == 66, "\(result)")
        #expect(result.errorOutput.contains("Run `poststore sync --store sqlite:nope.sqlite` first."), "\(result)")
    }
}
