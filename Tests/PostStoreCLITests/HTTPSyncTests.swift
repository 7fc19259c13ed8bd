import Foundation
import PostStore
import PostStoreTestSupport
import PostStoreTesting
import Synchronization
import Testing

/// `poststore sync` over real HTTP, against a ``TestHTTPServer`` on 127.0.0.1.
@Suite struct HTTPSyncTests {
    static let posts = SamplePosts.make(count: 25)
    static let etag = #"W/"posts-v1""#

    /// `/posts` as json-server serves it: the whole list with an ETag (and `304` for `If-None-Match` with it), or
    /// with `_page` and `_limit` a slice with `X-Total-Count`.
    static func endpoint(_ request: TestHTTPServer.Request) -> TestHTTPServer.Reply {
        guard request.path == "/posts" else { return .response(status: 404) }
        let json = [("Content-Type", "application/json; charset=utf-8")]
        if let page = request.queryItems["_page"].flatMap(Int.init),
            let limit = request.queryItems["_limit"].flatMap(Int.init)
        {
            let slice = Array(posts.dropFirst((page - 1) * limit).prefix(limit))
            return .response(
                status: 200,
                headers: json + [("X-Total-Count", String(posts.count))],
                body: SamplePosts.json(slice)
            )
        }
        if request.headers["if-none-match"] == etag { return .response(status: 304, headers: [("ETag", etag)]) }
        return .response(status: 200, headers: json + [("ETag", etag)], body: SamplePosts.json(posts))
    }

    /// URL schemes are case-insensitive (RFC 3986); FoundationNetworking takes only lowercase ones.
    @Test func anUppercaseSchemeIsTheSameURL() async throws {
        let server = try TestHTTPServer(handler: Self.endpoint)
        let sandbox = try Sandbox()
        let url = server.url("/posts").absoluteString.replacingOccurrences(of: "http://", with: "HTTP://")

        let result = try await sandbox.run(["sync", "--from", url, "--store", "posts.sqlite"])

        #expect(result.exitCode == 0, "\(result)")
        #expect(try await sandbox.posts(in: "posts.sqlite") == Self.posts)
    }

    @Test func aSecondSyncIsNotModified() async throws {
        let server = try TestHTTPServer(handler: Self.endpoint)
        let sandbox = try Sandbox()
        let url = server.url("/posts").absoluteString

        let first = try await sandbox.run(["sync", "--from", url, "--store", "posts.sqlite"])
        let second = try await sandbox.run(["sync", "--from", url, "--store", "posts.sqlite"])
        let json = try await sandbox.run(["sync", "--from", url, "--store", "posts.sqlite", "--format", "json"])
        let info = try await sandbox.run(["info", "--store", "posts.sqlite"])

        #expect(first.exitCode == 0, "\(first)")
        #expect(
            first.output.hasPrefix(
                "Synced \(url) into sqlite:posts.sqlite: 25 fetched, 25 inserted, 0 updated, 0 unchanged, 0 deleted "
                    + "(1 page, "
            ),
            "\(first)"
        )
        #expect(second.exitCode == 0, "\(second)")
        #expect(second.output.contains("not modified"), "\(second)")
        #expect(second.standardError.isEmpty, "\(second)")
        let report = try JSONSerialization.jsonObject(with: json.standardOutput) as? [String: Any]
        #expect(report?["notModified"] as? Bool == true, "\(json)")
        #expect(report?["fetched"] as? Int == 0, "\(json)")
        let requests = server.requests
        #expect(requests.count == 3)
        #expect(requests.first?.headers["if-none-match"] == nil)
        #expect(requests.dropFirst().allSatisfy { $0.headers["if-none-match"] == Self.etag })
        #expect(info.outputLines.contains("etag:           \(Self.etag)"), "\(info)")
        #expect(info.outputLines.contains { $0.hasSuffix(" from \(url) (25 fetched)") }, "\(info)")
        #expect(try await sandbox.posts(in: "posts.sqlite") == Self.posts)
    }

    /// `--verbose` logs each retry to standard error; `--quiet` keeps standard error empty on success even then.
    @Test(arguments: [false, true])
    func quietSilencesStandardErrorOnSuccess(quiet: Bool) async throws {
        let requests = Mutex(0)
        let server = try TestHTTPServer { request in
            let number = requests.withLock { count in
                count += 1
                return count
            }
            return number == 1 ? .response(status: 503) : Self.endpoint(request)
        }
        let sandbox = try Sandbox()
        let url = server.url("/posts").absoluteString

        let result = try await sandbox.run(
            ["sync", "--from", url, "--store", "posts.sqlite", "--retries", "1", "--verbose"]
                + (quiet ? ["--quiet"] : [])
        )

        #expect(result.exitCode == 0, "\(result)")
        #expect(result.output.hasPrefix("Synced \(url)"), "\(result)")
        if quiet {
            #expect(result.standardError.isEmpty, "\(result)")
        } else {
            #expect(result.errorOutput.contains("Attempt 1 failed"), "\(result)")
        }
    }

    @Test func pagesAreFetchedAndCounted() async throws {
        let server = try TestHTTPServer(handler: Self.endpoint)
        let sandbox = try Sandbox()
        let url = server.url("/posts").absoluteString

        let result = try await sandbox.run([
            "sync", "--from", url, "--store", "json:posts.json", "--page-size", "10", "--format", "json",
        ])

        #expect(result.exitCode == 0, "\(result)")
        let report = try JSONSerialization.jsonObject(with: result.standardOutput) as? [String: Any]
        #expect(report?["pages"] as? Int == 3, "\(result)")
        #expect(report?["inserted"] as? Int == 25, "\(result)")
        #expect(server.requests.map(\.target) == (1...3).map { "/posts?_page=\($0)&_limit=10" })
        #expect(try await sandbox.posts(in: "json:posts.json") == Self.posts)
    }

    /// What the server does wrong, and the exit code it must give; the store already synced stays as it was.
    ///
    /// Spec (issue 5): 69 for "network error, timeouts, HTTP errors after retries", 66 only for "a store or input
    /// file that does not exist"; so a 404 is 69 too.
    @Test(arguments: [
        (reply: TestHTTPServer.Reply.response(status: 500), status: Int32(69), message: "500"),
        (reply: .response(status: 404), status: 69, message: "404"),
        (reply: .hang(.seconds(3)), status: 69, message: "within 0.5 s"),
        (reply: .response(status: 200, body: Data("<html>".utf8)), status: 65, message: "not valid JSON"),
        (reply: .response(status: 200, body: Data(#"[{"id": 1}]"#.utf8)), status: 65, message: "userId"),
    ])
    func aFailingServerChangesNothing(reply: TestHTTPServer.Reply, status: Int32, message: String) async throws {
        let server = try TestHTTPServer { _ in reply }
        let sandbox = try Sandbox()
        try await sandbox.seed(Self.posts, into: "posts.sqlite")
        let before = try sandbox.snapshot()
        // Only the hanging server needs a short timeout; a loaded machine may need longer for the others.
        let timeout = if case .hang = reply { "0.5" } else { "20" }

        let result = try await sandbox.run([
            "sync", "--from", server.url("/posts").absoluteString, "--store", "posts.sqlite", "--retries", "0",
            "--timeout", timeout,
        ])

        #expect(result.exitCode == status, "\(result)")
        #expect(result.errorLines.count == 1, "\(result)")
        #expect(result.errorOutput.contains(message), "\(result)")
        #expect(server.requests.count == 1, "--retries 0 means one attempt")
        #expect(try sandbox.snapshot() == before)
    }
}
