import Foundation
import PostStore
import PostStoreTesting
import Testing

/// `poststore migrate` and `migrate --status`.
@Suite struct MigrateCommandTests {
    @Test func statusListsEveryAppliedMigration() async throws {
        let sandbox = try Sandbox()
        try await sandbox.seed(SamplePosts.make(count: 3), into: "posts.sqlite")
        let before = try sandbox.snapshot()

        let result = try await sandbox.run(["migrate", "--store", "posts.sqlite", "--status"])

        #expect(result.exitCode == 0, "\(result)")
        #expect(result.outputLines.count == 7, "\(result)")
        for (index, line) in result.outputLines.enumerated() {
            #expect(line.hasPrefix("applied  000\(index + 1)_"), "\(line)")
        }
        #expect(!result.output.contains("pending"))
        #expect(try sandbox.snapshot() == before)
    }

    @Test func migratingAnUpToDateStoreAppliesNone() async throws {
        let sandbox = try Sandbox()
        try await sandbox.seed(SamplePosts.make(count: 3), into: "posts.sqlite")
        let before = try sandbox.snapshot()

        let result = try await sandbox.run(["migrate", "--store", "posts.sqlite"])

        #expect(result.exitCode == 0, "\(result)")
        #expect(result.output == "Applied 0 migrations; schema version 7.\n")
        #expect(try sandbox.snapshot() == before)
    }

    @Test(arguments: [["--status"], []])
    func migratingAMissingStoreCreatesNothing(arguments: [String]) async throws {
        let sandbox = try Sandbox()

        let result = try await sandbox.run(["migrate", "--store", "missing.sqlite"] + arguments)

        #expect(result.exitCode == 66, "\(result)")
        #expect(result.errorLines.count == 1, "\(result)")
        #expect(!sandbox.exists("missing.sqlite"))
    }

    @Test func aJSONStoreHasNoMigrations() async throws {
        let sandbox = try Sandbox()
        try await sandbox.seed(SamplePosts.make(count: 3), into: "json:posts.json")

        let result = try await sandbox.run(["migrate", "--store", "json:posts.json", "--status"])

        #expect(result.exitCode == 0, "\(result)")
        #expect(result.output.contains("has no migrations"), "\(result)")
    }

    /// The store's path is the user's: a CRLF or an escape in it is shown, and the answer stays one line.
    @Test func aPathWithControlsIsShownOnOneLine() async throws {
        let sandbox = try Sandbox()
        let store = "json:posts\r\n\u{1B}[31m.json"
        try await sandbox.seed(SamplePosts.make(count: 3), into: store)

        let result = try await sandbox.run(["migrate", "--store", store, "--status"])

        #expect(result.exitCode == 0, "\(result)")
        #expect(result.outputLines.count == 1, "\(result)")
        #expect(result.output.contains(#"posts\r\n\u{1B}[31m.json has no migrations"#), "\(result)")
    }
}
