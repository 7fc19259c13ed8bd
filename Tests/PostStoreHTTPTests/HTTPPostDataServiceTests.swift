import Foundation
import HTTPTypes
import PostStore
import PostStoreTestSupport
import PostStoreTesting
import Synchronization
import Testing

@testable import PostStoreHTTP

/// The HTTP data service against a scripted transport: requests, paging, conditional requests and retries, with time
/// on a test clock.
@Suite struct HTTPPostDataServiceTests {
    private let url = URL(string: "https://example.com/api/posts?lang=en")!

    /// The live convenience initializer takes size limits too (by default ``PayloadLimits``' defaults), and checks
    /// them as the designated one does; no collaborator has to be spelled out for them.
    @Test func theConvenienceInitializerTakesLimits() throws {
        let limits = PayloadLimits(maximumPostBytes: 512, maximumPayloadBytes: 4096)
        #expect(try HTTPPostDataService(url: url, limits: limits).limits == limits)
        #expect(try HTTPPostDataService(url: url).limits == PayloadLimits())
        #expect(throws: PostStoreError.self) {
            try HTTPPostDataService(url: url, limits: PayloadLimits(maximumPostBytes: 0))
        }
    }

    @Test func wholeListIsOneRequestWithTheTimeoutAndNoConditionWithoutAnETag() async throws {
        let transport = StubHTTPTransport([.posts(SamplePosts.make(count: 5), headers: [.eTag: "\"v1\""])])
        let service = try makeService(transport, timeout: .seconds(7))

        let result = try await service.collectPosts(PostFetchRequest())

        #expect(result == .posts(SamplePosts.make(count: 5), etag: "\"v1\"", pages: 1))
        #expect(
            transport.requests == [
                StubHTTPTransport.Sent(
                    request: HTTPRequest(method: .get, url: url, headerFields: [.accept: "application/json"]),
                    timeout: .seconds(7),
                    maximumBodyBytes: PayloadLimits.defaultMaximumPayloadBytes
                )
            ]
        )
    }

    @Test func anETagIsSentAsIfNoneMatchAnd304MeansNotModified() async throws {
        let transport = StubHTTPTransport([.status(304)])
        let service = try makeService(transport)

        let result = try await service.collectPosts(PostFetchRequest(etag: "W/\"v1\""))

        #expect(result == .notModified)
        #expect(transport.requests.first?.request.headerFields[.ifNoneMatch] == "W/\"v1\"")
    }

    @Test func a304ToAnUnconditionalRequestIsAnError() async throws {
        let error = await #expect(throws: PostStoreError.self) {
            try await makeService(StubHTTPTransport([.status(304)])).collectPosts(PostFetchRequest())
        }
        #expect(error?.code == .sourceUnavailable)
        #expect(error?.message == "\(url.absoluteString) answered HTTP 304 Not Modified")
    }

    @Test func pagesKeepTheURLsQueryItemsAndStopOnAShortPage() async throws {
        let posts = SamplePosts.make(count: 25)
        let transport = StubHTTPTransport(fallback: Self.pagingServer(posts))
        let events = Mutex<[SyncProgress]>([])

        let result = try await makeService(transport, pageSize: 10)
            .collectPosts(PostFetchRequest(etag: "\"ignored\"") { event in events.withLock { $0.append(event) } })

        #expect(result == .posts(posts, etag: nil, pages: 3))
        #expect(transport.requests.map(\.url?.query) == (1...3).map { "lang=en&_page=\($0)&_limit=10" })
        #expect(transport.requests.allSatisfy { $0.request.headerFields[.ifNoneMatch] == nil })
        // A downloading phase: its start; for each page its body's bytes as they arrive (the stub's in one piece),
        // then its posts (but the last page's); its end. Then a reading phase as the posts are read.
        let all = events.withLock { $0 }.compactMap { event -> WorkProgress? in
            if case .working(let progress) = event { progress } else { nil }
        }
        let progress = all.filter { $0.phase == .downloading }
        #expect(
            all.filter { $0.phase != .downloading } == [
                WorkProgress(phase: .reading, completed: 0, total: 25),
                WorkProgress(phase: .reading, completed: 25, total: 25),
                WorkProgress(phase: .reading, completed: 25, total: 25, isFinished: true),
            ]
        )
        #expect(progress.map(\.completed) == [0, 0, 10, 10, 20, 20, 25])
        #expect(progress.map(\.pages) == [0, 0, 1, 1, 2, 2, 3])
        #expect(progress.map(\.total) == [nil, nil, nil, nil, nil, nil, 25])
        #expect(progress.map(\.isFinished) == [false, false, false, false, false, false, true])
        let bytes = progress.map { $0.bytes ?? -1 }
        #expect(bytes[0] == 0 && zip(bytes, bytes.dropFirst()).allSatisfy { $0 <= $1 } && bytes[1] > 0, "\(bytes)")
        #expect(progress.dropLast().allSatisfy { $0.totalBytes == nil }, "a page's length is not the download's")
    }

    @Test func aWholeListReportsItsBytesAgainstItsAnnouncedLength() async throws {
        let posts = SamplePosts.make(count: 25)
        let transport = StubHTTPTransport([.posts(posts)])
        let events = Mutex<[SyncProgress]>([])

        _ = try await makeService(transport)
            .collectPosts(PostFetchRequest { event in events.withLock { $0.append(event) } })

        let progress = events.withLock { $0 }.compactMap { event -> WorkProgress? in
            if case .working(let progress) = event { progress } else { nil }
        }
        let size = SamplePosts.json(posts).count
        #expect(
            progress == [
                WorkProgress(phase: .downloading, completed: 0, pages: 0, bytes: 0),
                WorkProgress(phase: .downloading, completed: 0, pages: 0, bytes: size, totalBytes: size),
                WorkProgress(
                    phase: .downloading,
                    completed: 25,
                    total: 25,
                    pages: 1,
                    bytes: size,
                    totalBytes: size,
                    isFinished: true
                ),
                WorkProgress(phase: .reading, completed: 0, total: 25),
                WorkProgress(phase: .reading, completed: 25, total: 25),
                WorkProgress(phase: .reading, completed: 25, total: 25, isFinished: true),
            ]
        )
    }

    @Test func anExactMultipleEndsOnAnEmptyPageOrOnTheTotalCount() async throws {
        let posts = SamplePosts.make(count: 20)
        let withoutTotal = StubHTTPTransport(fallback: Self.pagingServer(posts))
        #expect(
            try await makeService(withoutTotal, pageSize: 10).collectPosts(PostFetchRequest())
                == .posts(posts, etag: nil, pages: 3)
        )

        let withTotal = StubHTTPTransport(fallback: Self.pagingServer(posts, totalCount: true))
        #expect(
            try await makeService(withTotal, pageSize: 10).collectPosts(PostFetchRequest())
                == .posts(posts, etag: nil, pages: 2)
        )
        #expect(withTotal.requests.count == 2)
    }

    @Test func aLinkHeaderIsFollowedAndItsLastPageEndsTheFetch() async throws {
        let first = SamplePosts.make(count: 2)
        let second = SamplePosts.make(count: 2, firstId: 3)
        let transport = StubHTTPTransport([
            .posts(first, headers: [.link: "<https://example.com/cursor?after=2>; rel=\"next\""]),
            .posts(second, headers: [.link: "</api/posts?_page=1>; rel=\"first\""]),
        ])

        let result = try await makeService(transport, pageSize: 2).collectPosts(PostFetchRequest())

        #expect(result == .posts(first + second, etag: nil, pages: 2))
        #expect(transport.requests.map(\.url?.absoluteString).last == "https://example.com/cursor?after=2")
    }

    /// A URL that asks for a window is fetched as written; json-server's `X-Total-Count` then counts the list
    /// without the window, so it is not held against the answer. Without a window it is.
    @Test func anUnpagedWindowIsFetchedAsWrittenAndItsTotalIsNotTheAnswers() async throws {
        let transport = StubHTTPTransport([
            .posts(SamplePosts.make(count: 5), headers: [.xTotalCount: "100"]),
            .posts(SamplePosts.make(count: 5), headers: [.xTotalCount: "100"]),
        ])
        func service(_ address: String) throws -> HTTPPostDataService {
            try HTTPPostDataService(
                url: URL(string: address)!,
                transport: transport,
                clock: TestClock(),
                random: FixedRandomSource(fraction: 0)
            )
        }

        let windowed = try await service("https://example.com/posts?_limit=5").collectPosts(PostFetchRequest())
        #expect(windowed == .posts(SamplePosts.make(count: 5), etag: nil, pages: 1))
        #expect(transport.requests.map(\.url?.query) == ["_limit=5"])
        let error = await #expect(throws: PostStoreError.self) {
            try await service("https://example.com/posts").collectPosts(PostFetchRequest())
        }
        #expect(error?.message.contains("announced 100 posts (X-Total-Count) but sent 5") == true)
    }

    @Test(
        arguments: [
            (
                "a server that ignores _limit", [SamplePosts.make(count: 3)], nil,
                "holds 3 posts, more than the page size 2"
            ),
            (
                "a server that ignores _page", [SamplePosts.make(count: 2), SamplePosts.make(count: 2)], nil,
                "repeats post 1 of page 1"
            ),
            (
                "a total count that is not reached",
                [SamplePosts.make(count: 2), SamplePosts.make(count: 1, firstId: 3)], 5,
                "announced 5 posts (X-Total-Count) but sent 3"
            ),
        ] as [(String, [[Post]], Int?, String)]
    )
    func pagingThatDoesNotAddUpIsRefused(_ case: String, pages: [[Post]], total: Int?, message: String) async throws {
        let headers: HTTPFields = total.map { [.xTotalCount: String($0)] } ?? [:]
        let transport = StubHTTPTransport(pages.map { .posts($0, headers: headers) })

        let error = await #expect(throws: PostStoreError.self) {
            try await makeService(transport, pageSize: 2).collectPosts(PostFetchRequest())
        }

        #expect(error?.code == .invalidData)
        #expect(error?.message.contains(message) == true, "\(error?.message ?? "")")
    }

    @Test func retriesFollowTheBackoffScheduleOnTheInjectedClock() async throws {
        let transport = StubHTTPTransport([
            .status(500), .status(503), .failure(HTTPTransportError(.connectionFailed, "refused")),
            .status(408), .posts(SamplePosts.make(count: 1)),
        ])
        let clock = TestClock()
        let policy = RetryPolicy(maximumAttempts: 5, initialDelay: .milliseconds(100), maximumDelay: .milliseconds(300))
        let events = Mutex<[SyncProgress]>([])

        let result = try await makeService(transport, retryPolicy: policy, clock: clock, random: 0.5)
            .collectPosts(PostFetchRequest { event in events.withLock { $0.append(event) } })

        #expect(result == .posts(SamplePosts.make(count: 1), etag: nil, pages: 1))
        // Equal jitter at 0.5: three quarters of 100, 200, 300 (capped) and 300 ms.
        #expect(clock.sleeps == [.milliseconds(75), .milliseconds(150), .milliseconds(225), .milliseconds(225)])
        let retries = events.withLock { $0 }.compactMap { event -> Int? in
            if case .retrying(let attempt, _, _) = event { attempt } else { nil }
        }
        #expect(retries == [1, 2, 3, 4])
    }

    @Test func retryAfterLengthensTheWaitInSecondsOrAsADate() async throws {
        let clock = TestClock()
        let inNinetySeconds = clock.now().addingTimeInterval(90)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        let transport = StubHTTPTransport([
            .status(429, headers: [.retryAfter: "7"]),
            .status(503, headers: [.retryAfter: formatter.string(from: inNinetySeconds)]),
            .posts([]),
        ])

        _ = try await makeService(transport, clock: clock, random: 0).collectPosts(PostFetchRequest())

        // The date is 90 s after the start, and the first wait took 7 of them.
        #expect(clock.sleeps == [.seconds(7), .seconds(83)])
    }

    @Test func aRetryAfterLongerThanTheLimitFailsAtOnce() async throws {
        let transport = StubHTTPTransport([.status(429, headers: [.retryAfter: "3600"], body: "slow down")])
        let clock = TestClock()

        let error = await #expect(throws: PostStoreError.self) {
            try await makeService(transport, clock: clock).collectPosts(PostFetchRequest())
        }

        #expect(error?.code == .sourceUnavailable)
        #expect(error?.message.contains("429 Too Many Requests: slow down") == true)
        #expect(
            error?.message.contains(
                "slow down. The server asks to retry after 3600 s, longer than the 120 s this client waits."
            ) == true,
            "\(error?.message ?? "")"
        )
        #expect(clock.sleeps.isEmpty && transport.requests.count == 1)
    }

    @Test(arguments: [400, 401, 403, 404, 410, 422])
    func otherClientErrorsFailAtOnce(_ status: Int) async throws {
        let transport = StubHTTPTransport([.status(status, body: "{\"error\": \"nope\"}")])

        let error = await #expect(throws: PostStoreError.self) {
            try await makeService(transport).collectPosts(PostFetchRequest())
        }

        // A missing resource is "not found", like a missing file; any other refusal is "unavailable".
        #expect(error?.code == ([404, 410].contains(status) ? .sourceNotFound : .sourceUnavailable))
        #expect(error?.message.hasPrefix("\(url.absoluteString) answered HTTP \(status)") == true)
        #expect(error?.message.hasSuffix(": {\"error\": \"nope\"}") == true)
        #expect(transport.requests.count == 1)
    }

    @Test func givingUpSaysHowManyAttemptsWereMade() async throws {
        let transport = StubHTTPTransport(fallback: { _ in .status(503) })
        let clock = TestClock()

        let error = await #expect(throws: PostStoreError.self) {
            try await makeService(transport, retryPolicy: RetryPolicy(maximumAttempts: 3), clock: clock)
                .collectPosts(PostFetchRequest())
        }

        #expect(error?.code == .sourceUnavailable)
        #expect(
            error?.message == "\(url.absoluteString) answered HTTP 503 Service Unavailable. Gave up after 3 attempts."
        )
        #expect(transport.requests.count == 3 && clock.sleeps.count == 2)
    }

    @Test func aRequestThatCannotBeSentIsNotRetried() async throws {
        let transport = StubHTTPTransport([.failure(HTTPTransportError(.invalidRequest, "unsupported URL"))])

        let error = await #expect(throws: PostStoreError.self) {
            try await makeService(transport).collectPosts(PostFetchRequest())
        }

        #expect(error?.code == .sourceUnavailable && error?.message == "unsupported URL")
        #expect(transport.requests.count == 1)
    }

    @Test func aBadBodyIsNotRetriedAndNamesTheURLAndTheRecord() async throws {
        let body = #"[{"userId": 1, "id": 9, "title": 5, "body": ""}]"#
        let transport = StubHTTPTransport([.status(200, body: body)])

        let error = await #expect(throws: PostStoreError.self) {
            try await makeService(transport).collectPosts(PostFetchRequest())
        }

        #expect(error?.code == .invalidData)
        #expect(
            error?.message == "Cannot use the posts from \(url.absoluteString): The post at index 0 (id 9): "
                + "field \"title\" must be a string, found a number."
        )
        #expect(transport.requests.count == 1)
    }

    @Test(
        arguments: [
            ("ftp://example.com/posts", nil, Duration.seconds(1), "is not an http or https URL"),
            ("https://example.com/posts", 0, .seconds(1), "page size must be at least 1"),
            ("https://example.com/posts", nil, .zero, "timeout must be positive"),
            // A request has no place for credentials: refused, never sent without them (and never echoed).
            ("https://me:secret@example.com/posts", nil, .seconds(1), "has a user name or password in it"),
            ("https://me@example.com/posts", nil, .seconds(1), "has a user name or password in it"),
            // Paging would replace a window the URL asks for, and sync every post instead.
            ("https://example.com/posts?_limit=5", 2, .seconds(1), "(_limit=5), which paging by 2 would replace"),
            ("https://example.com/posts?lang=en&_page=3", 2, .seconds(1), "(_page=3)"),
            ("https://example.com/posts?_start=10&_end=20", 2, .seconds(1), "(_start=10)"),
            ("https://example.com/posts?_end=20", 2, .seconds(1), "give the window or the page size, not both"),
        ] as [(String, Int?, Duration, String)]
    )
    func badSettingsAreRefused(_ address: String, pageSize: Int?, timeout: Duration, message: String) throws {
        let error = #expect(throws: PostStoreError.self) {
            try HTTPPostDataService(
                url: URL(string: address)!,
                pageSize: pageSize,
                timeout: timeout,
                transport: StubHTTPTransport(),
                clock: TestClock(),
                random: FixedRandomSource(fraction: 0)
            )
        }
        #expect(error?.code == .invalidArgument)
        #expect(error?.message.contains(message) == true)
        #expect(error?.message.contains("secret") == false)
    }

    // MARK: - Helpers

    private func makeService(
        _ transport: StubHTTPTransport,
        pageSize: Int? = nil,
        timeout: Duration = .seconds(30),
        retryPolicy: RetryPolicy = RetryPolicy(),
        clock: TestClock = TestClock(),
        random: Double = 0.5
    ) throws -> HTTPPostDataService {
        try HTTPPostDataService(
            url: url,
            pageSize: pageSize,
            timeout: timeout,
            retryPolicy: retryPolicy,
            transport: transport,
            clock: clock,
            random: FixedRandomSource(fraction: random)
        )
    }

    /// Answers `_page`/`_limit` requests from `posts` as json-server does, with `X-Total-Count` when asked.
    private static func pagingServer(
        _ posts: [Post],
        totalCount: Bool = false
    ) -> @Sendable (HTTPRequest) -> StubHTTPTransport.Reply {
        { request in
            let items = request.url.flatMap { URLComponents(url: $0, resolvingAgainstBaseURL: false)?.queryItems } ?? []
            let value = { (name: String) in items.first { $0.name == name }?.value.flatMap { Int($0) } }
            guard let page = value("_page"), let limit = value("_limit") else { return .posts(posts) }
            let slice = Array(posts.dropFirst((page - 1) * limit).prefix(limit))
            return .posts(slice, headers: totalCount ? [.xTotalCount: String(posts.count)] : [:])
        }
    }
}
