import Foundation
import PostStore
import PostStoreConformance
import PostStoreHTTP
import PostStoreTestSupport
import PostStoreTesting
import Synchronization
import Testing

/// The HTTP data service over real HTTP: a ``TestHTTPServer`` on 127.0.0.1 playing json-server, the live
/// ``URLSessionHTTPTransport``, and a test clock with fixed jitter so retries never really wait. Wall time is measured
/// only where the timeout itself is under test. It is among the composition root's tests because it also syncs into
/// the SQLite and JSON stores; the HTTP module's own tests are in PostStoreHTTPTests.
@Suite struct HTTPIntegrationTests {
    // MARK: - Whole list and pages

    @Test func theWholeListIsOneRequestThatReturnsTheETag() async throws {
        let posts = SamplePosts.make(count: 100)
        let fixture = try Fixture(posts: posts)

        let result = try await fixture.service().collectPosts(PostFetchRequest())

        #expect(result == .posts(posts, etag: fixture.endpoint.etag, pages: 1))
        let requests = fixture.server.requests
        #expect(requests.map(\.target) == ["/posts"])
        #expect(requests.first?.headers["accept"] == "application/json")
        #expect(requests.first?.headers["if-none-match"] == nil)
    }

    @Test func pagesArriveInOrderAndKeepTheURLsQueryItems() async throws {
        let posts = SamplePosts.make(count: 100)
        let fixture = try Fixture(posts: posts)
        let events = Mutex<[SyncProgress]>([])

        // The ETag must not be sent: a 304 for one page says nothing about the others.
        let result = try await fixture.service("/posts?lang=en", pageSize: 30)
            .collectPosts(
                PostFetchRequest(etag: fixture.endpoint.etag) { event in events.withLock { $0.append(event) } }
            )

        #expect(result == .posts(posts, etag: nil, pages: 4))
        let requests = fixture.server.requests
        #expect(requests.map(\.target) == (1...4).map { "/posts?lang=en&_page=\($0)&_limit=30" })
        #expect(requests.allSatisfy { $0.headers["if-none-match"] == nil })
        let all = events.withLock { $0 }.compactMap { event -> WorkProgress? in
            if case .working(let progress) = event { progress } else { nil }
        }
        // A downloading phase, then a reading phase as the posts were read.
        let progress = all.filter { $0.phase == .downloading }
        #expect(all.drop { $0.phase == .downloading }.map(\.phase) == [.reading, .reading, .reading])
        // Between the page updates, the bytes of each body as they arrive (in as many pieces as URLSession makes).
        let pageUpdates = progress.enumerated().filter { index, update in
            index == 0 || update.pages != progress[index - 1].pages
        }
        .map(\.element)
        #expect(pageUpdates.map(\.completed) == [0, 30, 60, 90, 100])
        #expect(pageUpdates.map(\.total) == [nil, 100, 100, 100, 100])
        #expect(pageUpdates.map(\.pages) == [0, 1, 2, 3, 4])
        #expect(progress.map(\.isFinished) == Array(repeating: false, count: progress.count - 1) + [true])
        let bytes = progress.map { $0.bytes ?? -1 }
        #expect(bytes.first == 0 && zip(bytes, bytes.dropFirst()).allSatisfy { $0 <= $1 }, "\(bytes)")
        #expect(Set(pageUpdates.map { $0.bytes ?? -1 }).count == 5, "each page adds bytes: \(pageUpdates)")
    }

    @Test func withoutPagingHeadersTheShortPageIsTheLast() async throws {
        let posts = SamplePosts.make(count: 100)
        let fixture = try Fixture(posts: posts, sendsPagingHeaders: false)

        let result = try await fixture.service("/posts?lang=en", pageSize: 30).collectPosts(PostFetchRequest())

        #expect(result == .posts(posts, etag: nil, pages: 4))
        #expect(fixture.server.requests.map(\.target) == (1...4).map { "/posts?lang=en&_page=\($0)&_limit=30" })
    }

    /// X-Total-Count says the list is complete after page 2; without it only an empty page 3 can say so.
    @Test(arguments: [true, false])
    func anExactMultipleOfThePageSizeEnds(sendsPagingHeaders: Bool) async throws {
        let posts = SamplePosts.make(count: 100)
        let fixture = try Fixture(posts: posts, sendsPagingHeaders: sendsPagingHeaders)

        let result = try await fixture.service(pageSize: 50).collectPosts(PostFetchRequest())

        let pages = sendsPagingHeaders ? 2 : 3
        #expect(result == .posts(posts, etag: nil, pages: pages))
        #expect(fixture.server.requests.map { $0.queryItems["_page"] } == (1...pages).map { String($0) })
    }

    // MARK: - Conditional requests through a sync

    @Test func aSyncRecordsTheETagAndAnUnchangedServerAnswers304() async throws {
        let fixture = try Fixture(posts: SamplePosts.make(count: 100))
        try await withStore(.sqlite) { store, _ in
            let service = try fixture.service()
            let sync = SyncService(dataService: service, store: store, clock: fixture.clock)
            let firstETag = fixture.endpoint.etag

            let first = try await sync.sync()
            #expect(first.inserted == 100 && first.fetched == 100 && !first.notModified)
            #expect(try await store.syncState(for: service.source)?.etag == firstETag)
            let posts = try await store.query(.all)

            fixture.clock.advance(by: .seconds(60))
            let second = try await sync.sync()
            #expect(fixture.server.requests.map { $0.headers["if-none-match"] } == [nil, firstETag])
            #expect(second.notModified && second.fetched == 0 && second.summary == WriteSummary())
            #expect(try await store.query(.all) == posts)
            let state = try #require(try await store.syncState(for: service.source))
            #expect(state.etag == firstETag && state.syncedAt == fixture.clock.now())

            var changed = SamplePosts.make(count: 105)
            changed[0].title = "changed on the server"
            fixture.endpoint.posts = changed
            let third = try await sync.sync()
            #expect(fixture.server.requests.last?.headers["if-none-match"] == firstETag)
            #expect(third.summary == WriteSummary(inserted: 5, updated: 1, unchanged: 99) && !third.notModified)
            #expect(try await store.query(.all) == changed)
            #expect(fixture.endpoint.etag != firstETag)
            #expect(try await store.syncState(for: service.source)?.etag == fixture.endpoint.etag)
        }
    }

    // MARK: - Retries

    @Test func serverErrorsAreRetriedWithBackoffOnTheClock() async throws {
        let posts = SamplePosts.make(count: 100)
        let fixture = try Fixture(posts: posts)
        fixture.endpoint.script([.response(status: 500), .response(status: 503)])

        let result = try await fixture.service().collectPosts(PostFetchRequest())

        #expect(result == .posts(posts, etag: fixture.endpoint.etag, pages: 1))
        #expect(fixture.server.requests.count == 3)
        let policy = RetryPolicy()
        #expect(fixture.clock.sleeps == [1, 2].map { policy.delay(beforeRetry: $0, randomFraction: 0.5) })
    }

    @Test func retryAfterLengthensTheWait() async throws {
        let posts = SamplePosts.make(count: 10)
        let fixture = try Fixture(posts: posts)
        fixture.endpoint.script([.response(status: 429, headers: [("Retry-After", "7")])])

        let result = try await fixture.service().collectPosts(PostFetchRequest())

        #expect(result == .posts(posts, etag: fixture.endpoint.etag, pages: 1))
        #expect(fixture.server.requests.count == 2)
        #expect(fixture.clock.sleeps == [.seconds(7)])
    }

    @Test func notFoundFailsAtOnce() async throws {
        let fixture = try Fixture(posts: SamplePosts.make(count: 10))
        let service = try fixture.service("/missing")

        let error = await #expect(throws: PostStoreError.self) { try await service.collectPosts(PostFetchRequest()) }

        #expect(error?.code == .sourceNotFound)
        #expect(error?.message.contains(service.url.absoluteString) == true)
        #expect(error?.message.contains("404") == true)
        #expect(fixture.server.requests.count == 1)
        #expect(fixture.clock.sleeps.isEmpty)
    }

    // MARK: - Timeouts

    /// Each attempt waits the whole timeout, no more: two attempts of 1 s take about 2 s, not the server's 600 s.
    /// The upper bound is loose because the whole suite loads both cores (more so under a sanitizer); a client that
    /// waited for the server would still take 1,200 s.
    @Test func aHangingServerTimesOutOnEveryAttempt() async throws {
        let fixture = try Fixture(posts: [])
        fixture.endpoint.failure = .hang(.seconds(600))
        let service = try fixture.service(timeout: .seconds(1), retryPolicy: RetryPolicy(maximumAttempts: 2))

        let start = ContinuousClock.now
        let error = await #expect(throws: PostStoreError.self) { try await service.collectPosts(PostFetchRequest()) }
        let elapsed = ContinuousClock.now - start

        #expect(error?.code == .sourceUnavailable)
        #expect(error?.message.contains("within") == true)
        #expect(fixture.server.requests.count == 2)
        // The server hangs for 600 s: ending well before proves the timeouts fired (see hangLimit for the margin).
        #expect(elapsed >= .milliseconds(1800) && elapsed < hangLimit, "took \(elapsed)")
    }

    /// URLSession on Linux rounds timeouts down to whole seconds, so 0.5 s would fire at once; the transport keeps it.
    /// (Load can only make it later, so the upper bound is loose: below the server's 600 s.)
    @Test func aSubSecondTimeoutFiresOnTime() async throws {
        let fixture = try Fixture(posts: [])
        fixture.endpoint.failure = .hang(.seconds(600))
        let service = try fixture.service(timeout: .milliseconds(500), retryPolicy: .never)

        let start = ContinuousClock.now
        let error = await #expect(throws: PostStoreError.self) { try await service.collectPosts(PostFetchRequest()) }
        let elapsed = ContinuousClock.now - start

        #expect(error?.code == .sourceUnavailable)
        #expect(fixture.server.requests.count == 1)
        #expect(elapsed >= .milliseconds(450) && elapsed < hangLimit, "took \(elapsed)")
    }

    // MARK: - Failures

    @Test(arguments: ServerFailure.allCases)
    func aFailedFetchNamesTheURLAndIsRetriedOnlyWhenThatCanHelp(_ failure: ServerFailure) async throws {
        let fixture = try Fixture(posts: SamplePosts.make(count: 10))
        fixture.endpoint.failure = failure.reply
        let service = try fixture.service(
            timeout: failure.serviceTimeout,
            retryPolicy: ServerFailure.serviceRetryPolicy
        )

        let error = await #expect(throws: PostStoreError.self) { try await service.collectPosts(PostFetchRequest()) }

        #expect(error?.code == failure.code)
        let message = error?.message ?? ""
        #expect(message.contains(service.url.absoluteString), "\(message)")
        for fragment in failure.messageFragments {
            #expect(message.localizedCaseInsensitiveContains(fragment), "\(message)")
        }
        let attempts = failure.isRetried ? ServerFailure.serviceRetryPolicy.maximumAttempts : 1
        #expect(fixture.server.requests.count == attempts)
        #expect(fixture.clock.sleeps.count == attempts - 1)
    }

    /// The store's files are compared byte for byte, so not even a sync state may be written.
    @Test(arguments: [StoreKind.json, .sqlite], ServerFailure.allCases)
    func aFailedSyncLeavesTheStoreAsItWas(_ kind: StoreKind, _ failure: ServerFailure) async throws {
        let fixture = try Fixture(posts: SamplePosts.make(count: 20))
        try await withStore(kind) { store, directory in
            let service = try fixture.service(
                timeout: failure.serviceTimeout,
                retryPolicy: ServerFailure.serviceRetryPolicy
            )
            let sync = SyncService(dataService: service, store: store, clock: fixture.clock)
            _ = try await sync.sync()
            let files = try await kind.storedFiles(in: directory)
            let snapshot = try await StoreSnapshot(of: store)

            fixture.endpoint.posts = SamplePosts.make(count: 30)
            fixture.endpoint.failure = failure.reply
            let error = await #expect(throws: PostStoreError.self) { try await sync.sync() }

            #expect(error?.code == failure.code)
            #expect(try await kind.storedFiles(in: directory) == files)
            #expect(try await StoreSnapshot(of: store) == snapshot)
        }
    }
}

// MARK: - Helpers

extension HTTPIntegrationTests {
    /// A way the server fails every request, and what the service must make of it.
    enum ServerFailure: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case notFound
        case serverError
        case retryAfterTooLong
        case timeout
        case truncatedBody
        case malformedJSON
        case wrongFieldType
        case objectInsteadOfArray
        case duplicateIds

        /// The per-request timeout of the service this failure is tried against: short where the timeout is what is
        /// under test (the server hangs 25 times longer), else long enough that no prompt answer can miss it on a
        /// loaded machine. A 400 ms timeout for every case once timed out a prompt 429 under load: it was retried,
        /// and the request count, not the outcome, failed the test.
        var serviceTimeout: Duration { self == .timeout ? .milliseconds(400) : .seconds(60) }

        /// The retry policy of those services: two retries, so a retried failure takes three requests.
        static let serviceRetryPolicy = RetryPolicy(maximumAttempts: 3)

        var testDescription: String { rawValue }

        /// What the server answers.
        var reply: TestHTTPServer.Reply {
            switch self {
            case .notFound: .response(status: 404, body: Data("{}".utf8))
            case .serverError: .response(status: 500, body: Data("database is down".utf8))
            case .retryAfterTooLong: .response(status: 429, headers: [("Retry-After", "600")])
            case .timeout: .hang(.seconds(10))
            case .truncatedBody:
                .truncated(
                    status: 200,
                    body: SamplePosts.json(SamplePosts.make(count: 10)).prefix(200),
                    declaredLength: 5000
                )
            case .malformedJSON: .response(status: 200, body: Data(#"[{"userId": 1, "id": 1, "title": "a""#.utf8))
            case .wrongFieldType:
                .response(
                    status: 200,
                    body: Data(
                        """
                        [{"userId": 1, "id": 1, "title": "a", "body": "b"},
                         {"userId": 1, "id": 2, "title": 42, "body": "b"}]
                        """.utf8
                    )
                )
            case .objectInsteadOfArray: .response(status: 200, body: Data(#"{"posts": []}"#.utf8))
            case .duplicateIds:
                .response(
                    status: 200,
                    body: SamplePosts.json(SamplePosts.make(count: 5) + [SamplePosts.make(count: 5)[2]])
                )
            }
        }

        /// The code the fetch fails with.
        var code: PostStoreError.Code {
            switch self {
            case .notFound: .sourceNotFound
            case .serverError, .retryAfterTooLong, .timeout, .truncatedBody: .sourceUnavailable
            case .malformedJSON, .wrongFieldType, .objectInsteadOfArray, .duplicateIds: .invalidData
            }
        }

        /// Whether the service tries again until the policy's attempts are spent; a bad body or a 404 stays bad.
        var isRetried: Bool {
            [.serverError, .timeout, .truncatedBody].contains(self)
        }

        /// What the message must say besides the URL.
        var messageFragments: [String] {
            switch self {
            case .notFound: ["404"]
            case .serverError: ["500", "database is down", "gave up after 3 attempts"]
            case .retryAfterTooLong: ["429", "600"]
            case .timeout: ["within", "gave up after 3 attempts"]
            case .truncatedBody: ["gave up after 3 attempts"]
            case .malformedJSON: ["not valid JSON"]
            case .wrongFieldType: ["index 1", "id 2", #""title""#]
            case .objectInsteadOfArray: []
            case .duplicateIds: ["repeats id 3"]
            }
        }
    }
}

/// A json-server-like endpoint on a live test server, and the clock the services made for it sleep on.
private struct Fixture {
    let endpoint: JSONServerEndpoint
    let server: TestHTTPServer
    let clock = TestClock()

    init(posts: [Post], sendsPagingHeaders: Bool = true) throws {
        let endpoint = JSONServerEndpoint(posts: posts, sendsPagingHeaders: sendsPagingHeaders)
        self.endpoint = endpoint
        server = try TestHTTPServer { endpoint.reply(to: $0) }
    }

    /// The live HTTP data service for `pathAndQuery` on the server, with this fixture's clock and fixed jitter.
    func service(
        _ pathAndQuery: String = "/posts",
        pageSize: Int? = nil,
        timeout: Duration = .seconds(10),
        retryPolicy: RetryPolicy = RetryPolicy()
    ) throws -> HTTPPostDataService {
        try HTTPPostDataService(
            url: server.url(pathAndQuery),
            pageSize: pageSize,
            timeout: timeout,
            retryPolicy: retryPolicy,
            transport: URLSessionHTTPTransport(),
            clock: clock,
            random: FixedRandomSource(fraction: 0.5)
        )
    }
}

/// `/posts` the way json-server serves it, over posts a test can change, and failures it can put in front.
///
/// The whole list comes with an `ETag` (`W/"length-hash"`, as Express makes them), and `If-None-Match` with that
/// tag gets `304`. `_page` and `_limit` (10 by default) slice the list, adding `X-Total-Count` and, for `_page`, a
/// `Link` header with the first, prev, next and last pages, each the request's URL with `_page` changed. Other
/// query items are ignored. Any other path gets `404`.
private final class JSONServerEndpoint: Sendable {
    private struct State {
        var posts: [Post]
        var script: [TestHTTPServer.Reply] = []
        var failure: TestHTTPServer.Reply?
    }

    /// Whether pages carry `X-Total-Count` and `Link`.
    let sendsPagingHeaders: Bool
    private let state: Mutex<State>

    init(posts: [Post], sendsPagingHeaders: Bool) {
        self.sendsPagingHeaders = sendsPagingHeaders
        state = Mutex(State(posts: posts))
    }

    /// The posts served.
    var posts: [Post] {
        get { state.withLock { $0.posts } }
        set { state.withLock { $0.posts = newValue } }
    }

    /// The whole list's `ETag`.
    var etag: String { Self.etag(of: SamplePosts.json(posts)) }

    /// What answers every request, in place of the posts; `nil` serves them.
    var failure: TestHTTPServer.Reply? {
        get { state.withLock { $0.failure } }
        set { state.withLock { $0.failure = newValue } }
    }

    /// Answers the next requests with `replies`, one each, before anything else.
    func script(_ replies: [TestHTTPServer.Reply]) {
        state.withLock { $0.script += replies }
    }

    func reply(to request: TestHTTPServer.Request) -> TestHTTPServer.Reply {
        let (posts, override) = state.withLock { state in
            (state.posts, state.script.isEmpty ? state.failure : state.script.removeFirst())
        }
        if let override { return override }
        guard request.method == "GET", request.path == "/posts" else {
            return .response(status: 404, body: Data("{}".utf8))
        }
        var served = posts
        var headers = [("Content-Type", "application/json; charset=utf-8")]
        let page = request.queryItems["_page"].flatMap { Int($0) }
        if page != nil || request.queryItems["_limit"] != nil {
            let limit = max(request.queryItems["_limit"].flatMap { Int($0) } ?? 10, 1)
            let start = min((max(page ?? 1, 1) - 1) * limit, posts.count)
            served = Array(posts[start..<min(start + limit, posts.count)])
            if sendsPagingHeaders {
                headers.append(("X-Total-Count", String(posts.count)))
                if let page {
                    let lastPage = max((posts.count + limit - 1) / limit, 1)
                    headers.append(("Link", Self.link(for: request, page: page, lastPage: lastPage)))
                }
            }
        }
        let body = SamplePosts.json(served)
        let etag = Self.etag(of: body)
        if request.headers["if-none-match"] == etag {
            return .response(status: 304, headers: [("ETag", etag)])
        }
        return .response(status: 200, headers: headers + [("ETag", etag)], body: body)
    }

    /// json-server's `Link` header: the request's own URL with `_page` changed, other items kept in place.
    private static func link(for request: TestHTTPServer.Request, page: Int, lastPage: Int) -> String {
        let host = request.headers["host"] ?? "127.0.0.1"
        let query = request.target.split(separator: "?", maxSplits: 1).dropFirst().first?.split(separator: "&") ?? []
        func url(_ page: Int) -> String {
            let items = query.map { $0.hasPrefix("_page=") ? "_page=\(page)" : String($0) }
            return "http://\(host)\(request.path)?\(items.joined(separator: "&"))"
        }
        var links = [("first", 1)]
        if page > 1 { links.append(("prev", page - 1)) }
        if page < lastPage { links.append(("next", page + 1)) }
        links.append(("last", lastPage))
        return links.map { #"<\#(url($0.1))>; rel="\#($0.0)""# }.joined(separator: ", ")
    }

    /// A weak tag from the body's length and FNV-1a hash.
    private static func etag(of body: Data) -> String {
        let hash = body.reduce(UInt64(0xcbf2_9ce4_8422_2325)) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
        return #"W/"\#(body.count)-\#(String(hash, radix: 16))""#
    }
}
