import Foundation
import PostStore
import PostStoreTestSupport
import PostStoreTesting
import Testing

/// `poststore query --watch` as a user runs it: a watching process, writes by other processes, a signal to end it.
@Suite struct WatchCommandTests {
    private static let posts = SamplePosts.make(count: 20)

    /// The sample with some posts replaced.
    private static func posts(replacing edits: [Post]) -> [Post] {
        posts.map { post in edits.first { $0.id == post.id } ?? post }
    }

    @Test(arguments: ["posts.sqlite", "posts.json"])
    func anotherProcesssWritesArePrintedAndSIGINTExitsZero(store: String) async throws {
        let sandbox = try Sandbox()
        try await sandbox.seed(Self.posts, into: store)
        let edits = [
            Post(userId: 1, id: 1, title: "user 1's, edited", body: "b"),
            Post(userId: 2, id: 12, title: "user 2's, edited", body: "b"),
        ]
        try sandbox.write(Self.posts(replacing: [edits[0]]), to: "user1.json")
        try sandbox.write(Self.posts(replacing: edits), to: "both.json")
        let result = try await sandbox.runningUntilStopped(
            ["query", "--store", store, "--user", "2", "--format", "json", "--watch"]
        ) { watcher in
            try await watcher.firstLine(of: .output) { $0.hasPrefix("[") }
            // Another process's write that leaves user 2's posts as they were prints nothing; the next one does.
            #expect(try await sandbox.run(["sync", "--from", "user1.json", "--store", store]).exitCode == 0)
            #expect(try await sandbox.run(["sync", "--from", "both.json", "--store", store]).exitCode == 0)
            try await watcher.firstLine(of: .output) { $0.contains("user 2's, edited") }
        }
        #expect(result.exitCode == 0, "\(result)")
        #expect(result.errorOutput.isEmpty, "\(result)")
        let results = try result.outputLines.map { try PostJSON.decode(Data($0.utf8)) }
        #expect(results.count == 2, "the first result and user 2's edit, nothing for user 1's: \(result)")
        #expect(results.first == Self.posts.filter { $0.userId == 2 })
        #expect(results.last == Self.posts(replacing: edits).filter { $0.userId == 2 })
    }

    @Test func eachResultOfNDJSONEndsWithABlankLineAndCountsAreLines() async throws {
        let sandbox = try Sandbox()
        try await sandbox.seed(Self.posts, into: "posts.sqlite")
        try sandbox.write(Array(Self.posts.dropLast()), to: "fewer.json")
        // Each result's lines are waited for before the next write: results printed, not the writes, are counted.
        let watching = { (arguments: [String], linesPerResult: [Int]) in
            try await sandbox.runningUntilStopped(["query", "--store", "posts.sqlite", "--watch"] + arguments) {
                watcher in
                let prune = ["sync", "--from", "fewer.json", "--store", "posts.sqlite", "--prune"]
                try await watcher.lines(of: .output, atLeast: linesPerResult[0])
                #expect(try await sandbox.run(prune).exitCode == 0)
                try await watcher.lines(of: .output, atLeast: linesPerResult[0] + linesPerResult[1])
                try await sandbox.seed(Self.posts, into: "posts.sqlite")
                try await watcher.lines(of: .output, atLeast: linesPerResult.reduce(0, +))
            }
        }
        let counted = try await watching(["--count"], [1, 1, 1])
        #expect(counted.exitCode == 0 && counted.outputLines == ["20", "19", "20"], "\(counted)")
        let listed = try await watching(["--format", "ndjson", "--id", "19", "--id", "20"], [3, 2, 3])
        let lines = listed.outputLines
        let ids = lines.map { try? PostJSON.decode(Data("[\($0)]".utf8)).first?.id }
        #expect(ids == [19, 20, nil, 19, nil, 19, 20, nil] && lines[2].isEmpty, "\(listed)")
    }

    @Test func aStoreDeletedWhileWatchedEndsTheWatchWithOneLineAnd66() async throws {
        let sandbox = try Sandbox()
        try await sandbox.seed(Self.posts, into: "posts.sqlite")
        let control = ChildControl()
        async let watched = sandbox.run(["query", "--store", "posts.sqlite", "--count", "--watch"], control: control)
        do {
            try await control.firstLine(of: .output) { $0 == "20" }
            try FileManager.default.removeItem(atPath: sandbox.path("posts.sqlite"))
        } catch {
            control.send(SIGKILL)
            _ = try? await watched
            throw error
        }
        let result = try await watched
        #expect(result.exitCode == 66, "\(result)")
        #expect(result.errorLines.count == 1 && result.errorOutput.contains("deleted or moved"), "\(result)")
    }

    @Test func aCountIsPrintedAgainOnlyWhenItChanges() async throws {
        let sandbox = try Sandbox()
        try await sandbox.seed(Self.posts, into: "posts.sqlite")
        try sandbox.write(Self.posts(replacing: [Post(userId: 1, id: 1, title: "edited", body: "b")]), to: "edit.json")
        try sandbox.write(Array(Self.posts.dropLast()), to: "fewer.json")
        let result = try await sandbox.runningUntilStopped(
            ["query", "--store", "posts.sqlite", "--count", "--watch"]
        ) { watcher in
            try await watcher.lines(of: .output, atLeast: 1)
            #expect(try await sandbox.run(["sync", "--from", "edit.json", "--store", "posts.sqlite"]).exitCode == 0)
            let prune = ["sync", "--from", "fewer.json", "--store", "posts.sqlite", "--prune"]
            #expect(try await sandbox.run(prune).exitCode == 0)
            try await watcher.firstLine(of: .output) { $0 == "19" }
        }
        #expect(result.outputLines == ["20", "19"], "the edit left the count as it was: \(result)")
    }

    @Test func outputThatCannotBeWrittenIsOneLineAnd74() async throws {
        let sandbox = try Sandbox()
        try await sandbox.seed(Self.posts, into: "posts.sqlite")
        // A shell gives the command /dev/full as its standard output, which ChildProcess (posix_spawn) cannot.
        let binary = try PostStoreExecutable.url().path
        let outcome = try await onOwnThread {
            try ChildProcess.run(
                "/bin/sh",
                ["-c", #"exec "$0" query --store "$1" --count > /dev/full"#, binary, sandbox.path("posts.sqlite")],
                environment: ["PATH": "/usr/bin:/bin"]
            )
        }
        #expect(outcome.termination == .exited(74))
        #expect(
            String(decoding: outcome.standardError, as: UTF8.self)
                == "poststore: cannot write the output: no space left on device.\n"
        )
    }
}
