import Foundation
import PostStore
import PostStoreTestSupport
import PostStoreTesting
import Testing

/// `poststore serve` as a user runs it: a real process on a loopback port, stopped by a signal.
@Suite struct ServeCommandTests {
    @Test func servesTheStoreUntilSIGTERMThenExitsZero() async throws {
        let sandbox = try Sandbox()
        let posts = SamplePosts.make(count: 30)
        try await sandbox.seed(posts, into: "posts.sqlite")
        let control = ChildControl()
        async let served = sandbox.run(["serve", "--store", "posts.sqlite", "--port", "0"], control: control)
        let port = try await control.servedPort()
        let client = RawHTTPClient(port: port)
        let page = try await client.send("GET", "/posts?_page=2&_limit=20")
        #expect(page.status == 200 && page.header("x-total-count") == "30", "\(page)")
        #expect(try PostJSON.decode(page.body) == Array(posts[20...]))
        #expect(try await client.send("POST", "/posts", body: Data("{}".utf8)).status == 405)
        control.send(SIGTERM)
        let result = try await served
        #expect(result.exitCode == 0, "\(result)")
        #expect(
            result.errorLines.first
                == "poststore: serving sqlite:posts.sqlite at http://127.0.0.1:\(port)/posts (read-only); Ctrl-C stops."
        )
        #expect(
            result.errorLines.contains { $0.hasPrefix("127.0.0.1 \"GET /posts?_page=2&_limit=20\" 200 ") },
            "\(result)"
        )
        #expect(result.errorLines.last == "poststore: stopped (requests in flight had up to 10 seconds to finish).")
        #expect(result.output.isEmpty)
    }

    /// SIGINT while large answers are being sent: every one arrives whole, then the process exits 0.
    @Test func aStopLetsRequestsInFlightFinish() async throws {
        let sandbox = try Sandbox()
        let posts = SamplePosts.make(count: 20_000)
        try await sandbox.seed(posts, into: "posts.sqlite")
        let control = ChildControl()
        async let served = sandbox.run(
            ["serve", "--store", "posts.sqlite", "--port", "0", "--quiet"],
            control: control
        )
        let port = try await control.servedPort()
        let client = RawHTTPClient(port: port)
        // The signal comes once every answer has begun to arrive: each request is then in flight, not waiting to
        // be accepted (a connection the server has not accepted yet is refused by a stop, as it should be).
        let (started, starting) = AsyncStream<Void>.makeStream()
        let request = Data("GET /posts HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8)
        let answers = try await withThrowingTaskGroup(of: RawHTTPClient.Answer.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    try RawHTTPClient.parse(try await client.exchange(request) { starting.yield() })
                }
            }
            var begun = 0
            for await _ in started {
                begun += 1
                if begun == 4 { break }
            }
            control.send(SIGINT)
            return try await group.reduce(into: []) { $0.append($1) }
        }
        for answer in answers {
            #expect(answer.status == 200)
            #expect(try PostJSON.decode(answer.body).count == 20_000)
        }
        let result = try await served
        #expect(result.exitCode == 0, "\(result)")
        // After the stop, nothing listens.
        #expect(throws: (any Error).self) { try RawHTTPClient.connect(port: port) }
    }

    @Test(arguments: [
        (["serve", "--port", "70000"], 64, "--port must be from 0 to 65535"),
        (["serve", "--cors", "localhost"], 64, "--cors must be an origin"),
        (["serve", "--max-limit", "0"], 64, "--max-limit must be at least 1"),
        (["serve", "--request-timeout", "0"], 64, "--request-timeout must be a number of seconds"),
        (["serve", "--store", "missing.sqlite"], 66, "There is no SQLite store"),
    ])
    func badInputIsOneLineAndACode(arguments: [String], code: Int32, message: String) async throws {
        let sandbox = try Sandbox()
        let result = try await sandbox.run(arguments)
        #expect(result.exitCode == code, "\(result)")
        #expect(result.errorLines.count == 1 && result.errorOutput.contains(message), "\(result)")
    }

    @Test func aPortInUseIsNamed() async throws {
        let sandbox = try Sandbox()
        try await sandbox.seed(SamplePosts.make(count: 3), into: "posts.sqlite")
        let control = ChildControl()
        async let first = sandbox.run(["serve", "--store", "posts.sqlite", "--port", "0"], control: control)
        let port = try await control.servedPort()
        let second = try await sandbox.run(["serve", "--store", "posts.sqlite", "--port", String(port)])
        control.send(SIGTERM)
        _ = try await first
        #expect(second.exitCode == 64, "\(second)")
        #expect(second.errorOutput.contains("Cannot listen on 127.0.0.1:\(port)"), "\(second)")
        // A usage error the command finds as it runs points at its own help too.
        #expect(second.errorOutput.hasSuffix(" (see 'poststore serve --help')\n"), "\(second)")
    }
}
