import Foundation
import PostStore
import PostStoreTestSupport
import PostStoreTesting
import Testing

/// `poststore sync --follow` as a user runs it: a real server process, a real follower process, a signal to end it.
@Suite struct FollowCommandTests {
    private static let posts = SamplePosts.make(count: 30)

    @Test(arguments: ["text", "json"])
    func aFollowerPrintsEachAppliedWriteAndExitsZeroOnSIGINT(format: String) async throws {
        let sandbox = try Sandbox()
        try await sandbox.seed(Self.posts, into: "a.sqlite")
        let result = try await sandbox.serving("a.sqlite") { port in
            try await sandbox.following(
                [
                    "--from", "http://127.0.0.1:\(port)/posts", "--store", "b.sqlite", "--prune", "--follow", "--wait",
                    "5",
                    "--format", format, "--quiet",
                ]
            ) { follower in
                // Each write is waited for as the follower's report of it: a line printed once it has committed.
                func reported(_ text: String, _ json: String) async throws {
                    try await follower.firstLine(of: .output) { $0.contains(format == "text" ? text : json) }
                }
                try await reported(": 30 fetched", #""fetched":30"#)
                let client = RawHTTPClient(port: port)
                let edit = Data(#"{"userId": 3, "title": "followed", "body": "at once"}"#.utf8)
                #expect(
                    try await client.send("PUT", "/posts/4", headers: ["Content-Type": "application/json"], body: edit)
                        .status == 200
                )
                try await reported(" 1 updated", #""updated":1"#)
                #expect(try await client.send("DELETE", "/posts/5").status == 200)
                try await reported(" 1 deleted", #""deleted":1"#)
            }
        }
        #expect(result.exitCode == 0, "\(result)")
        #expect(result.errorOutput.isEmpty, "\(result)")
        let replica = try await sandbox.posts(in: "b.sqlite")
        #expect(replica.count == 29 && replica.first { $0.id == 4 }?.title == "followed")
        let lines = result.outputLines
        #expect(lines.count == 3, "\(result)")
        if format == "text" {
            #expect(lines.first?.contains(": 30 fetched, 30 inserted") == true)
            #expect(lines.dropFirst().first?.contains(" by changes: 1 change, 0 inserted, 1 updated") == true)
            #expect(
                lines.last?.contains(" by changes: 1 change, 0 inserted, 0 updated, 0 unchanged, 1 deleted") == true
            )
        } else {
            let reports = try lines.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            #expect(reports.map { $0?["byChanges"] as? Bool } == [false, true, true])
            #expect(reports.map { $0?["fetched"] as? Int } == [30, 1, 1])
            #expect(reports.allSatisfy { $0?["changeToken"] is String })
        }
    }

    @Test func fullFetchesEveryPostFromASourceWithAFeed() async throws {
        let sandbox = try Sandbox()
        try await sandbox.seed(Self.posts, into: "a.sqlite")
        try await sandbox.serving("a.sqlite") { port in
            let sync = ["sync", "--from", "http://127.0.0.1:\(port)/posts", "--store", "b.sqlite"]
            #expect(try await sandbox.run(sync).output.contains(": 30 fetched"))
            #expect(try await sandbox.run(sync).output.contains(" by changes: 0 changes"))
            let full = try await sandbox.run(sync + ["--full"])
            #expect(full.exitCode == 0 && full.output.contains(": 30 fetched, 0 inserted, 0 updated, 30 unchanged"))
        }
    }

    @Test(arguments: [
        (["--wait", "5"], "--wait only makes sense with --follow"),
        (["--follow", "--dry-run"], "does not combine with --dry-run"),
        (["--follow", "--wait", "-1"], "--wait must be a number of seconds"),
    ])
    func misusedFollowOptionsAreUsageErrors(arguments: [String], mentions: String) async throws {
        let sandbox = try Sandbox()
        let result = try await sandbox.run(
            ["sync", "--from", "http://127.0.0.1:9/posts", "--store", "b.sqlite"] + arguments
        )
        #expect(result.exitCode == 64, "\(result)")
        #expect(result.errorLines.count == 1 && result.errorOutput.contains(mentions), "\(result)")
        #expect(!sandbox.exists("b.sqlite"))
    }

    @Test func followingAServerWithoutAFeedIsRefusedBeforeAnythingIsWritten() async throws {
        let sandbox = try Sandbox()
        let body = try JSONEncoder().encode(Self.posts)
        // A json-server-like source: every post, no PostStore-Changes-Token.
        let server = try TestHTTPServer { request in
            request.path == "/posts"
                ? .response(status: 200, headers: [("Content-Type", "application/json")], body: body)
                : .response(status: 404)
        }
        defer { server.stop() }
        let result = try await sandbox.run(
            ["sync", "--from", server.url("/posts").absoluteString, "--store", "b.sqlite", "--follow"]
        )
        #expect(result.exitCode == 64, "\(result)")
        #expect(result.errorLines.count == 1 && result.errorOutput.contains("offers no changes feed to follow"))
        #expect(!sandbox.exists("b.sqlite"))
    }

    @Test func aFollowerStoppedBeforeItReachedItsSourceSaysWhyAndExits69() async throws {
        let sandbox = try Sandbox()
        let source = "http://127.0.0.1:9/posts"
        let result = try await sandbox.following(["--from", source, "--store", "b.sqlite", "--follow"]) { follower in
            // Its retries are told on standard error, which is no terminal here.
            try await follower.firstLine(of: .error) { $0.hasPrefix("poststore: Retrying in 0.2 s (attempt 2 failed") }
        }
        #expect(result.exitCode == 69, "\(result)")
        // One count of attempts, the follower's: no request's own retries nested in it.
        let retries = result.errorLines.dropLast()
        #expect(retries.count >= 2 && retries.allSatisfy { !$0.contains("Gave up after") }, "\(result)")
        #expect(retries.first?.hasPrefix("poststore: Retrying in 0.1 s (attempt 1 failed") == true, "\(result)")
        #expect(result.errorLines.last?.hasPrefix("poststore: Stopped before \(source) could be reached (") == true)
        #expect(!sandbox.exists("b.sqlite"))
    }

    @Test func aFollowerStoppedDuringItsFirstCopyIsStoppedAsASyncIsAndLeavesNoStore() async throws {
        let sandbox = try Sandbox()
        // A source that takes the request and never answers: the first copy is under way when the signal comes.
        // Neither the hang nor the request's timeout may end before the signal, however late a busy test pool
        // delivers it (at 30 s, the default timeout, a run of the whole suite once saw a retry first).
        let (asked, asking) = AsyncStream.makeStream(of: Void.self)
        let server = try TestHTTPServer { _ in
            asking.yield()
            return .hang(hangLimit + .seconds(60))
        }
        let arguments = [
            "--from", server.url("/posts").absoluteString, "--store", "b.sqlite", "--follow",
            "--timeout", "\(hangLimit.components.seconds + 60)",
        ]
        let result = try await sandbox.following(arguments) { _ in
            // The signal comes once the source has the request (or, should it never come, at the hang limit).
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { for await _ in asked { return } }
                group.addTask { try await Task.sleep(for: hangLimit) }
                try await group.next()
                group.cancelAll()
            }
        }
        #expect(!server.requests.isEmpty, "the follower never asked its source")
        #expect(result.killedBySignal && result.status == SIGINT, "\(result)")
        #expect(
            result.errorLines == [
                "poststore: stopped by SIGINT; no store was left half-written (unfinished work is not applied)."
            ],
            "\(result)"
        )
        // No store, and no staging folder of one.
        #expect(try sandbox.directory.entries().filter { $0.contains("b.sqlite") } == [])
    }

    @Test func followingAFileIsAUsageError() async throws {
        let sandbox = try Sandbox()
        try sandbox.write(Self.posts, to: "posts.json")
        let result = try await sandbox.run(["sync", "--from", "posts.json", "--store", "b.sqlite", "--follow"])
        #expect(result.exitCode == 64 && result.errorOutput.contains("--follow needs an http(s) source"), "\(result)")
        #expect(!sandbox.exists("b.sqlite"))
    }
}
