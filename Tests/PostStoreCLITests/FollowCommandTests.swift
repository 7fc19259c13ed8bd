import Foundation
import PostStore
import PostStoreSQLite
import PostStoreTestSupport
import PostStoreTesting
import Testing

/// `poststore sync --follow` as a user runs it: a real server process, a real follower process, a signal to end it.
@Suite struct FollowCommandTests {
    private static let posts = SamplePosts.make(count: 30)

    /// A server of `a.sqlite` on a port the system chose, while `body` runs; stopped after it.
    private func withServer(
        _ sandbox: Sandbox,
        _ body: (Int) async throws -> Void
    ) async throws {
        try await sandbox.seed(Self.posts, into: "a.sqlite")
        let control = ChildControl()
        async let served = sandbox.run(
            ["serve", "--store", "a.sqlite", "--port", "0", "--allow-writes", "--quiet"],
            control: control
        )
        do {
            try await body(try await control.servedPort())
        } catch {
            control.send(SIGTERM)
            _ = try? await served
            throw error
        }
        control.send(SIGTERM)
        #expect(try await served.exitCode == 0)
    }

    /// Waits until the follower's store holds what `isDone` looks for, while the follower runs.
    private func waitFor(
        _ store: String,
        in sandbox: Sandbox,
        while follower: ChildControl,
        _ isDone: ([Post]) -> Bool
    ) async throws {
        while true {
            if let replica = try? SQLitePostStore(path: sandbox.path(store), mode: .openExisting),
                let posts = try? await replica.query(.all), isDone(posts)
            {
                return
            }
            try #require(!follower.hasEnded, "the follower ended before its store got there")
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    @Test(arguments: ["text", "json"])
    func aFollowerPrintsEachAppliedWriteAndExitsZeroOnSIGINT(format: String) async throws {
        let sandbox = try Sandbox()
        try await withServer(sandbox) { port in
            let control = ChildControl()
            async let following = sandbox.run(
                [
                    "sync", "--from", "http://127.0.0.1:\(port)/posts", "--store", "b.sqlite", "--prune", "--follow",
                    "--wait", "5", "--format", format, "--quiet",
                ],
                control: control
            )
            do {
                try await waitFor("b.sqlite", in: sandbox, while: control) { $0.count == 30 }
                let client = RawHTTPClient(port: port)
                let edit = Data(#"{"userId": 3, "title": "followed", "body": "at once"}"#.utf8)
                #expect(
                    try await client.send("PUT", "/posts/4", headers: ["Content-Type": "application/json"], body: edit)
                        .status == 200
                )
                try await waitFor("b.sqlite", in: sandbox, while: control) {
                    $0.first { $0.id == 4 }?.title == "followed"
                }
                #expect(try await client.send("DELETE", "/posts/5").status == 200)
                try await waitFor("b.sqlite", in: sandbox, while: control) { $0.count == 29 }
            } catch {
                // The follower runs until stopped: a failed wait must not leave the test waiting for it.
                control.send(SIGKILL)
                _ = try? await following
                throw error
            }
            control.send(SIGINT)
            let result = try await following
            #expect(result.exitCode == 0, "\(result)")
            #expect(result.errorOutput.isEmpty, "\(result)")
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

    @Test func followingAFileIsAUsageError() async throws {
        let sandbox = try Sandbox()
        try sandbox.write(Self.posts, to: "posts.json")
        let result = try await sandbox.run(["sync", "--from", "posts.json", "--store", "b.sqlite", "--follow"])
        #expect(result.exitCode == 64 && result.errorOutput.contains("--follow needs an http(s) source"), "\(result)")
        #expect(!sandbox.exists("b.sqlite"))
    }
}
