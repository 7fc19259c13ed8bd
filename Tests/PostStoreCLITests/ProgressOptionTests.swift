import Foundation
import PostStore
import PostStoreSQLite
import PostStoreTesting
import Testing

/// When `poststore` draws progress outside a terminal: never unless asked, so that a pipe or a CI log gets no control
/// characters; `--progress` draws it anyway, `--no-progress` never.
@Suite struct ProgressOptionTests {
    @Test(arguments: ["sync", "copy"])
    func withoutATerminalNothingIsDrawn(_ command: String) async throws {
        let sandbox = try Sandbox()
        try sandbox.write(SamplePosts.make(count: 12_000), to: "posts.json")
        try await sandbox.seed(SamplePosts.make(count: 12_000), into: "source.sqlite")
        let arguments =
            command == "sync"
            ? ["sync", "--from", "posts.json", "--store", "new.sqlite"]
            : ["copy", "--from-store", "source.sqlite", "--to-store", "new.sqlite"]

        let result = try await sandbox.run(arguments, environment: ["TERM": "xterm-256color"])

        #expect(result.exitCode == 0, "\(result)")
        #expect(result.errorOutput.isEmpty, "\(result)")
    }

    @Test func progressDrawsIntoAPipeAtEightyColumnsAndNoProgressDrawsNothing() async throws {
        let sandbox = try Sandbox()
        try sandbox.write(SamplePosts.make(count: 12_000), to: "posts.json")

        let drawn = try await sandbox.run(["sync", "--from", "posts.json", "--store", "a.sqlite", "--progress"])
        let quiet = try await sandbox.run(
            ["sync", "--from", "posts.json", "--store", "b.sqlite", "--no-progress"],
            environment: ["TERM": "xterm-256color"]
        )

        #expect(drawn.exitCode == 0 && quiet.exitCode == 0, "\(drawn) \(quiet)")
        // Each phase's finished line, after whatever live lines were drawn.
        let finished = Self.finishedLines(drawn)
        #expect(finished.count == 2, "\(drawn)")
        #expect(finished.first?.hasPrefix("Reading posts.json: 12,000 posts") == true, "\(drawn)")
        #expect(finished.last?.hasPrefix("Building the search index: 12,000 rows") == true, "\(drawn)")
        #expect(
            drawn.errorOutput.components(separatedBy: "\n").allSatisfy { line in
                (line.components(separatedBy: "\r").map { $0.replacingOccurrences(of: "\u{1B}[K", with: "") }
                    .map(\.count).max() ?? 0) <= 79
            },
            "\(drawn)"
        )
        #expect(quiet.errorOutput.isEmpty, "\(quiet)")
    }

    @Test func copyDrawsItsReadingThenTheTargetsIndex() async throws {
        let sandbox = try Sandbox()
        try await sandbox.seed(SamplePosts.make(count: 12_000), into: "json:source.json")

        let result = try await sandbox.run(
            ["copy", "--from-store", "json:source.json", "--to-store", "new.sqlite", "--progress"]
        )

        #expect(result.exitCode == 0, "\(result)")
        let finished = Self.finishedLines(result)
        #expect(finished.count == 2, "\(result)")
        #expect(finished.first?.hasPrefix("Reading json:source.json: 12,000 posts in ") == true, "\(result)")
        #expect(finished.last?.hasPrefix("Building the search index: 12,000 rows in ") == true, "\(result)")
    }

    @Test(arguments: [
        ["migrate", "--store", "stale.sqlite"],
        ["sync", "--from", "posts.json", "--store", "stale.sqlite"],
        ["copy", "--from-store", "stale.sqlite", "--to-store", "json:copy.json"],
        ["info", "--store", "stale.sqlite"],
        ["query", "--store", "stale.sqlite", "--count"],
    ])
    func openingAStoreDrawsTheRebuildOfAStaleSearchIndex(command: [String]) async throws {
        let sandbox = try Sandbox()
        try sandbox.write(SamplePosts.make(count: 10), to: "posts.json")
        // Posts written by a program that opened the store without its index: the index is stale.
        let store = try SQLitePostStore(
            path: sandbox.path("stale.sqlite"),
            mode: .createIfMissing,
            busyTimeout: .seconds(5),
            searchIndex: false,
            clock: SystemClock()
        )
        try await store.upsert(SamplePosts.make(count: 12_000))

        let result = try await sandbox.run(command + ["--progress"])

        #expect(result.exitCode == 0, "\(result)")
        let finished = Self.finishedLines(result)
        // The line names the store: the work is opening it, not the command's own.
        #expect(
            finished.first?.hasPrefix("Rebuilding the search index of sqlite:stale.sqlite: 12,000 rows in ") == true,
            "\(result)"
        )
        // The rebuilt index is current: the same command again has nothing to rebuild.
        let again = try await sandbox.run(command + ["--progress"])
        #expect(again.exitCode == 0, "\(again)")
        #expect(!Self.finishedLines(again).contains { $0.hasPrefix("Rebuilding") }, "\(again)")
    }

    /// The lines a run left on standard error: each one's text after its last carriage return, the erase sequences
    /// dropped, empty lines left out.
    private static func finishedLines(_ result: CommandResult) -> [String] {
        result.errorOutput.components(separatedBy: "\n").compactMap { line in
            let last = (line.components(separatedBy: "\r").last ?? "").replacingOccurrences(of: "\u{1B}[K", with: "")
            return last.isEmpty ? nil : last
        }
    }
}
