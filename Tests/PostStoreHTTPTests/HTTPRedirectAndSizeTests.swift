import Foundation
import HTTPTypes
import PostStore
import PostStoreTestSupport
import PostStoreTesting
import Testing

@testable import PostStoreHTTP

/// Redirects and answer sizes over real HTTP with the live ``URLSessionHTTPTransport``: redirects are followed within
/// a limit and never from `https` to another scheme; an answer over the payload limit is refused, whether its
/// `Content-Length` announces it or not.
@Suite struct HTTPRedirectAndSizeTests {
    private static let posts = SamplePosts.make(count: 5)

    /// `/hop/N` redirects to `/hop/N-1` (a 302), `/hop/0` and `/posts` serve the posts, `/loop` redirects to itself.
    private static func redirectingServer() throws -> TestHTTPServer {
        try TestHTTPServer { request in
            let parts = request.path.split(separator: "/")
            if parts.first == "hop", let hops = parts.last.flatMap({ Int($0) }), hops > 0 {
                return .response(status: 302, headers: [("Location", "/hop/\(hops - 1)")])
            }
            if request.path == "/loop" { return .response(status: 301, headers: [("Location", "/loop")]) }
            return .response(status: 200, body: SamplePosts.json(posts))
        }
    }

    private static func service(
        _ url: URL,
        pageSize: Int? = nil,
        maximumRedirects: Int = URLSessionHTTPTransport.defaultMaximumRedirects,
        limits: PayloadLimits = PayloadLimits()
    ) throws -> HTTPPostDataService {
        try HTTPPostDataService(
            url: url,
            pageSize: pageSize,
            timeout: .seconds(10),
            retryPolicy: RetryPolicy(maximumAttempts: 1),
            limits: limits,
            transport: URLSessionHTTPTransport(maximumRedirects: maximumRedirects),
            clock: TestClock(),
            random: FixedRandomSource(fraction: 0.5)
        )
    }

    @Test(arguments: [0, 1, 5])
    func redirectsUpToTheLimitAreFollowed(hops: Int) async throws {
        let server = try Self.redirectingServer()

        let result = try await Self.service(server.url("/hop/\(hops)")).collectPosts(PostFetchRequest())

        #expect(result == .posts(Self.posts, etag: nil, pages: 1))
        #expect(server.requests.count == hops + 1)
    }

    @Test(arguments: [("/hop/6", 5), ("/hop/1", 0), ("/loop", 5)])
    func oneRedirectPastTheLimitFailsWithoutRetrying(path: String, maximumRedirects: Int) async throws {
        let server = try Self.redirectingServer()
        let service = try Self.service(server.url(path), maximumRedirects: maximumRedirects)

        let error = try await #require(throws: PostStoreError.self) {
            try await service.collectPosts(PostFetchRequest())
        }

        #expect(error.code == .sourceUnavailable)
        #expect(error.message.contains("after \(maximumRedirects) redirects"), "\(error.message)")
        #expect(server.requests.count == maximumRedirects + 1)
    }

    @Test(arguments: [
        ("https://a.example/posts", "http://a.example/posts", true),
        ("https://a.example/posts", "ftp://a.example/posts", true),
        ("HTTPS://a.example/posts", "http://b.example/posts", true),
        ("https://a.example/posts", "https://b.example/posts", false),
        ("http://a.example/posts", "https://a.example/posts", false),
        ("http://a.example/posts", "http://b.example/posts", false),
    ])
    func aRedirectFromHTTPSToAnotherSchemeIsRefused(from: String, to: String, refused: Bool) throws {
        // A TLS server cannot run in the tests (no certificate the client trusts), so the runner's rule is checked
        // directly; the redirect integration tests above show the runner applies its rule to every redirect.
        let refusal = URLSessionTaskRunner.refusal(
            ofRedirectFrom: URL(string: from),
            to: URL(string: to),
            redirects: 1,
            maximumRedirects: 5
        )

        #expect((refusal != nil) == refused)
        if let refusal {
            #expect(refusal.kind == .redirectRefused)
            #expect(!refusal.isRetryable)
            #expect(refusal.message.contains("from https to an insecure address"))
        }
    }

    @Test(arguments: [true, false])
    func anAnswerOverThePayloadLimitIsRefused(announcesItsLength: Bool) async throws {
        let body = Data(SamplePosts.json(SamplePosts.make(count: 5_000)))
        let server = try TestHTTPServer { _ in
            announcesItsLength
                ? .response(status: 200, body: body)
                : .raw(Data("HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n".utf8) + body)
        }
        let service = try Self.service(server.url("/posts"), limits: PayloadLimits(maximumPayloadBytes: 64 << 10))

        let error = try await #require(throws: PostStoreError.self) {
            try await service.collectPosts(PostFetchRequest())
        }

        #expect(error.code == .invalidData)
        #expect(error.message.contains("larger than the limit of 64 KiB"), "\(error.message)")
        #expect(server.requests.count == 1, "a refused answer is not retried")
    }

    @Test func pagesCountTogetherAgainstThePayloadLimit() async throws {
        let posts = SamplePosts.make(count: 300)
        let server = try TestHTTPServer { request in
            let page = Int(request.queryItems["_page"] ?? "1") ?? 1
            return .response(status: 200, body: SamplePosts.json(Array(posts.dropFirst((page - 1) * 100).prefix(100))))
        }
        let pageBytes = SamplePosts.json(Array(posts.prefix(100))).count
        let limits = PayloadLimits(maximumPayloadBytes: pageBytes * 5 / 2)

        let error = try await #require(throws: PostStoreError.self) {
            try await Self.service(server.url("/posts"), pageSize: 100, limits: limits).collectPosts(PostFetchRequest())
        }

        #expect(error.code == .invalidData)
        #expect(error.message.contains("all pages together"), "\(error.message)")
        #expect(server.requests.count == 3)
    }

    @Test func anInjectedTransportsOversizedAnswerIsRefusedToo() async throws {
        let transport = StubHTTPTransport([.response(HTTPResponse(status: .ok), body: Data(count: 2048))])
        let service = try HTTPPostDataService(
            url: URL(string: "https://example.com/posts")!,
            limits: PayloadLimits(maximumPayloadBytes: 1024),
            transport: transport,
            clock: TestClock(),
            random: FixedRandomSource(fraction: 0.5)
        )

        let error = try await #require(throws: PostStoreError.self) {
            try await service.collectPosts(PostFetchRequest())
        }

        #expect(error.code == .invalidData)
        #expect(error.message.contains("larger than the limit of 1 KiB"), "\(error.message)")
    }
}
