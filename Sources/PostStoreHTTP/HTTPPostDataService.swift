public import Foundation
import HTTPTypes
package import Logging
public import PostStore
package import PostStoreEngines

/// Fetches posts from a JSONPlaceholder-style HTTP endpoint over `URLSession`.
///
/// - **Whole list or pages.** Without a page size, one `GET` of the URL returns the JSON array. With a page size
///   `K`, pages are requested json-server style (`?_page=N&_limit=K`, keeping the URL's other query items; a URL
///   with a window of its own, `_page`, `_limit`, `_start` or `_end`, is refused with a page size) until a
///   page holds fewer than `K` posts, the `X-Total-Count` header's total has arrived, or the `Link` header names
///   no `next` page (when it names one, that URL is followed). A page repeating an earlier page's post, a page
///   larger than `K`, or a final count that differs from `X-Total-Count` fails the fetch: the server is not paging
///   the way it says, and a sync must not act on a partial list.
/// - **Conditional requests.** An unpaged fetch sends the request's `ETag` as `If-None-Match`; `304 Not Modified`
///   returns `PostStreamResult/notModified`. Paged fetches are never conditional: a `304` for one page says
///   nothing about the others.
/// - **Timeouts and retries.** Each request waits at most `timeout`. Failures are retried as ``RetryPolicy``
///   says, waiting on the system clock with jitter from the system's random source.
/// - **Errors.** `PostStoreError` naming the URL: `sourceNotFound` for `404` and `410`, `sourceUnavailable` with
///   any other error status or the connection failure, `invalidData` with what is wrong in the body (see
///   `PostJSON`). The whole answer is checked before ``streamPosts(_:)`` returns.
///
/// To test code that syncs from a server without one, inject a `StubPostDataService` (from `PostStoreTesting`)
/// where this service would go.
///
/// For example:
///
/// ```swift
/// let service = try HTTPPostDataService(pageSize: 50)
/// let posts = try await service.fetchAllPosts()
/// ```
public struct HTTPPostDataService: PostDataService {
    /// JSONPlaceholder's posts: `https://jsonplaceholder.typicode.com/posts`.
    public static let defaultURL = URL(string: "https://jsonplaceholder.typicode.com/posts")!

    /// The most pages one fetch requests, against a server whose `Link` header never ends.
    static let maximumPages = 100_000

    /// The endpoint.
    public let url: URL

    /// Posts per page, or `nil` to fetch the whole list in one request.
    public let pageSize: Int?

    /// How long each request waits for its answer.
    public let timeout: Duration

    /// When failed requests are tried again.
    public let retryPolicy: RetryPolicy

    /// How much the source may send: the most bytes per post, and for the answers of one fetch together.
    public let limits: PayloadLimits

    private let transport: any HTTPTransport
    private let clock: any ClockProtocol
    private let random: any RandomSource
    private let logger: Logger?

    /// The URL, as sync states and reports name it.
    public var source: String { url.absoluteString }

    /// Creates a service that sends its requests through `transport`: the live initializer's designated one, and
    /// how the package's tests script a server.
    ///
    /// - Parameters:
    ///   - url: The endpoint; `http` or `https`.
    ///   - pageSize: Posts per page (1 or more), or `nil` for one request.
    ///   - timeout: How long each request waits for its answer.
    ///   - retryPolicy: When failed requests are tried again.
    ///   - limits: How much the source may send.
    ///   - transport: What sends the requests.
    ///   - clock: What the waits between retries sleep on.
    ///   - random: Where retry jitter comes from.
    ///   - logger: Where retries and pages are logged; `nil` logs nothing.
    /// - Throws: ``PostStoreError/Code/invalidArgument`` for a URL that is not `http` or `https` or that holds a
    ///   user name or password, a page size below 1 or with a URL that asks for a window, a timeout that is not
    ///   positive or a limit below 1 byte.
    package init(
        url: URL = defaultURL,
        pageSize: Int? = nil,
        timeout: Duration = .seconds(30),
        retryPolicy: RetryPolicy = RetryPolicy(),
        limits: PayloadLimits = PayloadLimits(),
        transport: any HTTPTransport,
        clock: any ClockProtocol,
        random: any RandomSource,
        logger: Logger? = nil
    ) throws(PostStoreError) {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host != nil else {
            throw PostStoreError(.invalidArgument, "The source URL \(url.absoluteString) is not an http or https URL.")
        }
        try Self.refuseCredentials(in: url)
        if let pageSize {
            guard pageSize >= 1 else {
                throw PostStoreError(.invalidArgument, "The page size must be at least 1 (got \(pageSize)).")
            }
            try Self.refuseWindow(in: url, pageSize: pageSize)
        }
        guard timeout > .zero else {
            throw PostStoreError(.invalidArgument, "The request timeout must be positive (got \(timeout)).")
        }
        try limits.validate()
        self.url = Self.withLowercasedScheme(url, scheme)
        self.pageSize = pageSize
        self.timeout = timeout
        self.retryPolicy = retryPolicy
        self.limits = limits
        self.transport = transport
        self.clock = clock
        self.random = random
        self.logger = logger
    }

    /// Refuses a URL that holds a user name or password: a request carries its URL as scheme, authority and path
    /// (swift-http-types), which have no place for them, so it would be sent without them. The password is never
    /// repeated in the message.
    ///
    /// - Parameter url: The source URL.
    /// - Throws: ``PostStoreError/Code/invalidArgument`` when the URL holds a user name or password.
    package static func refuseCredentials(in url: URL) throws(PostStoreError) {
        guard url.user == nil, url.password == nil else {
            throw PostStoreError(
                .invalidArgument,
                "The source URL for host \(url.host ?? "") has a user name or password in it, which PostStore does not "
                    + "send; remove them from the URL."
            )
        }
    }

    /// json-server's window parameters: paging sets `_page` and `_limit` itself, and json-server ignores `_start`
    /// and `_end` beside `_page`.
    static let windowParameters: Set<String> = ["_page", "_limit", "_start", "_end"]

    /// Refuses a URL that already asks for a window when a page size is given: paging would replace the window
    /// and sync every post instead of those the URL names.
    private static func refuseWindow(in url: URL, pageSize: Int) throws(PostStoreError) {
        guard let window = window(in: url) else { return }
        throw PostStoreError(
            .invalidArgument,
            "The source URL asks for a window (\(window.name)=\(window.value ?? "")), which paging by \(pageSize) "
                + "would replace with _page and _limit: give the window or the page size, not both."
        )
    }

    /// The first of json-server's window parameters in a URL's query, if any.
    private static func window(in url: URL) -> URLQueryItem? {
        let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        return items.first { windowParameters.contains($0.name) }
    }

    /// `url` with its scheme in lowercase: schemes are case-insensitive (RFC 3986), but FoundationNetworking refuses
    /// `HTTP://` as an unsupported URL.
    private static func withLowercasedScheme(_ url: URL, _ scheme: String) -> URL {
        guard url.scheme != scheme, var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            return url
        }
        components.scheme = scheme
        return components.url ?? url
    }

    /// Fetches the whole list, or every page, and checks every post before it returns: the stream reads posts
    /// held in memory (their JSON is at most `PayloadLimits/maximumPayloadBytes` long).
    ///
    /// - Parameter request: The `ETag` to send as `If-None-Match` (unpaged fetches only), and where to report
    ///   pages and retries.
    /// - Returns: The posts, their `ETag` and how many requests they took; or `PostStreamResult/notModified`.
    /// - Throws: `PostStoreError`, as the type's documentation says; `CancellationError` when the task is
    ///   cancelled.
    public func streamPosts(_ request: PostFetchRequest) async throws -> PostStreamResult {
        try await fetchEveryPost(request).result
    }

    // MARK: - Fetching

    /// What a fetch of every post returned: the result, the posts themselves (none for a `304`), and the change
    /// token of their state when the server sent one for all of them (a `PostStore-Changes-Token`, the same on
    /// every page).
    struct WholeFetch {
        let result: PostStreamResult
        let posts: [Post]
        let token: ChangeToken?
    }

    /// Fetches the whole list, or every page.
    func fetchEveryPost(_ request: PostFetchRequest) async throws -> WholeFetch {
        guard let pageSize else { return try await fetchWholeList(request) }
        return try await fetchPages(of: pageSize, request)
    }

    private func fetchWholeList(_ request: PostFetchRequest) async throws -> WholeFetch {
        let downloading = WorkProgress(phase: .downloading, completed: 0, pages: 0, bytes: 0)
        request.progress(.working(downloading))
        let (response, body) = try await get(
            url,
            etag: request.etag,
            maximumBytes: limits.maximumPayloadBytes,
            downloading: downloading,
            progress: request.progress
        )
        let token = response.headerFields.changesToken
        if response.status == .notModified { return WholeFetch(result: .notModified, posts: [], token: token) }
        let posts = try decode(body, from: url)
        // json-server's X-Total-Count counts the list without the window a URL asks for (`?_limit=5`).
        let total = Self.window(in: url) == nil ? response.headerFields.totalCount : nil
        try checkTotal(total, fetched: posts.count)
        request.progress(
            .working(WorkProgress(phase: .downloading, completed: posts.count, pages: 1, bytes: body.count).finished)
        )
        return WholeFetch(
            result: .posts(Self.stream(posts, request), etag: response.headerFields[.eTag], pages: 1),
            posts: posts,
            token: token
        )
    }

    private func fetchPages(of pageSize: Int, _ request: PostFetchRequest) async throws -> WholeFetch {
        var posts: [Post] = []
        // Every page's token: the pages are one state only when they all name the same.
        var tokens: Set<ChangeToken?> = []
        var pageOfId: [Int: Int] = [:]
        var expectedTotal: Int?
        var nextURL: URL? = Self.pageURL(url, page: 1, size: pageSize)
        var page = 0
        var receivedBytes = 0
        var downloading = WorkProgress(phase: .downloading, completed: 0, pages: 0, bytes: 0)
        request.progress(.working(downloading))
        while let pageURL = nextURL {
            page += 1
            let (response, body) = try await get(
                pageURL,
                etag: nil,
                maximumBytes: limits.maximumPayloadBytes - receivedBytes,
                downloading: downloading,
                progress: request.progress
            )
            receivedBytes += body.count
            tokens.insert(response.headerFields.changesToken)
            let pagePosts = try decode(body, from: pageURL)
            guard pagePosts.count <= pageSize else {
                throw invalid(
                    "Page \(page) (\(pageURL.absoluteString)) holds \(pagePosts.count) posts, more than the page size "
                        + "\(pageSize): the server does not seem to support _page and _limit; sync without a page size."
                )
            }
            for post in pagePosts {
                if let earlier = pageOfId.updateValue(page, forKey: post.id) {
                    throw invalid(
                        "Page \(page) (\(pageURL.absoluteString)) repeats post \(post.id) of page \(earlier): the "
                            + "server does not seem to support _page and _limit, or its posts changed while paging."
                    )
                }
            }
            posts += pagePosts
            expectedTotal = response.headerFields.totalCount ?? expectedTotal
            downloading = WorkProgress(
                phase: .downloading,
                completed: posts.count,
                total: expectedTotal,
                pages: page,
                bytes: receivedBytes
            )
            logger?.debug("Fetched page \(page) of \(source): \(pagePosts.count) posts.")
            if pagePosts.count < pageSize || expectedTotal.map({ posts.count >= $0 }) == true {
                break
            }
            request.progress(.working(downloading))
            if let links = response.headerFields.links(relativeTo: pageURL), !links.links.isEmpty {
                nextURL = links.next
            } else {
                nextURL = Self.pageURL(url, page: page + 1, size: pageSize)
            }
            guard nextURL == nil || page < Self.maximumPages else {
                throw invalid("\(source) still had more pages after \(page); stopped.")
            }
        }
        try checkTotal(expectedTotal, fetched: posts.count)
        request.progress(.working(downloading.finished))
        return WholeFetch(
            result: .posts(Self.stream(posts, request), etag: nil, pages: page),
            posts: posts,
            token: tokens.count == 1 ? tokens.first! : nil
        )
    }

    /// The downloaded posts as the stream the store reads, reporting a reading phase as it is read: SQLite, which
    /// writes as it reads, writes in that phase.
    private static func stream(_ posts: [Post], _ request: PostFetchRequest) -> PostStream {
        PostStream.reporting(posts) { request.progress(.working($0)) }
    }

    /// `url` with `_page` and `_limit` added, its other query items kept (it has no window of its own: see
    /// `refuseWindow(in:pageSize:)`).
    static func pageURL(_ url: URL, page: Int, size: Int) -> URL {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return url }
        var items = components.queryItems ?? []
        items.append(URLQueryItem(name: "_page", value: String(page)))
        items.append(URLQueryItem(name: "_limit", value: String(size)))
        components.queryItems = items
        return components.url ?? url
    }

    private func checkTotal(_ expected: Int?, fetched: Int) throws(PostStoreError) {
        guard let expected, expected != fetched else { return }
        throw invalid(
            "\(source) announced \(expected) posts (X-Total-Count) but sent \(fetched): the answer is incomplete "
                + "or the posts changed while paging; nothing was synced."
        )
    }

    func decode(_ body: Data, from url: URL) throws(PostStoreError) -> [Post] {
        do {
            return try PostJSON.decode(body, maximumPostBytes: limits.maximumPostBytes)
        } catch {
            throw PostStoreError(
                .invalidData,
                "Cannot use the posts from \(url.absoluteString): \(error.message)",
                cause: error
            )
        }
    }

    private func invalid(_ message: String) -> PostStoreError {
        PostStoreError(.invalidData, message)
    }

    // MARK: - Requests and retries

    /// Gets `url`, retrying as the policy says; returns only a 2xx answer, or a 304 to a conditional request, with
    /// a body of at most `maximumBytes`.
    ///
    /// `downloading` is the phase's state before this answer: each piece of the body is reported on top of it.
    ///
    /// - Parameters:
    ///   - timeout: How long the request waits for its answer; the service's own by default.
    ///   - answering: Error statuses returned as answers rather than thrown.
    func get(
        _ url: URL,
        etag: String?,
        maximumBytes: Int,
        downloading: WorkProgress,
        progress: @escaping @Sendable (SyncProgress) -> Void,
        timeout: Duration? = nil,
        answering: Set<Int> = []
    ) async throws -> (response: HTTPResponse, body: Data) {
        var fields: HTTPFields = [.accept: "application/json"]
        if let etag { fields[.ifNoneMatch] = etag }
        let request = HTTPRequest(method: .get, url: url, headerFields: fields)
        let tooLarge = PostStoreError(
            .invalidData,
            limits.payloadTooLarge("The answer from \(source)\(pageSize == nil ? "" : " (all pages together)")")
        )
        var attempt = 1
        while true {
            try Task.checkCancellation()
            let failure: String
            var retryAfter: Duration?
            do {
                let answer = try await transport.send(
                    request,
                    timeout: timeout ?? self.timeout,
                    maximumBodyBytes: maximumBytes
                ) {
                    received,
                    expected in
                    var update = downloading
                    update.bytes = (downloading.bytes ?? 0) + received
                    // The announced length is the whole download's only when it is one answer.
                    if pageSize == nil { update.totalBytes = expected }
                    progress(.working(update))
                }
                switch answer.response.status.code {
                case 200...299:
                    // Checked here too: an injected transport need not enforce the limit.
                    guard answer.body.count <= maximumBytes else { throw tooLarge }
                    return answer
                case 304 where etag != nil:
                    return answer
                case let status where answering.contains(status):
                    return answer
                case let status where RetryPolicy.isRetryable(statusCode: status):
                    failure = describe(answer, from: url)
                    retryAfter = answer.response.headerFields.retryAfter(now: clock.now())
                case 404, 410:
                    throw PostStoreError(.sourceNotFound, describe(answer, from: url))
                default:
                    throw PostStoreError(.sourceUnavailable, describe(answer, from: url))
                }
            } catch let error as HTTPTransportError where error.kind == .responseTooLarge {
                throw tooLarge
            } catch let error as HTTPTransportError {
                guard error.isRetryable else { throw PostStoreError(.sourceUnavailable, error.message, cause: error) }
                failure = error.message
            } catch let error as PostStoreError {
                throw error
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                // An injected transport broke its contract; callers still see only PostStoreError.
                throw PostStoreError(.sourceUnavailable, "Cannot get \(url.absoluteString): \(error).")
            }
            guard attempt < retryPolicy.maximumAttempts else {
                let attempts = attempt == 1 ? "" : " Gave up after \(attempt) attempts."
                throw PostStoreError(.sourceUnavailable, Self.sentence(failure) + attempts)
            }
            var delay = retryPolicy.delay(beforeRetry: attempt, randomFraction: random.nextFraction())
            if let retryAfter {
                guard retryAfter <= retryPolicy.maximumRetryAfter else {
                    throw PostStoreError(
                        .sourceUnavailable,
                        "\(Self.sentence(failure)) The server asks to retry after \(retryAfter.secondsDescription), longer than the "
                            + "\(retryPolicy.maximumRetryAfter.secondsDescription) this client waits."
                    )
                }
                delay = max(delay, retryAfter)
            }
            logger?.warning(
                "Attempt \(attempt) failed: \(Self.sentence(failure)) Retrying in \(delay.secondsDescription)."
            )
            progress(.retrying(attempt: attempt, delay: delay, reason: failure))
            try await clock.sleep(for: delay)
            attempt += 1
        }
    }

    func describe(_ answer: (response: HTTPResponse, body: Data), from url: URL) -> String {
        let excerpt = answer.body.bodyExcerpt.map { ": \($0)" } ?? ""
        return "\(url.absoluteString) answered HTTP \(answer.response.status.codeAndReason)\(excerpt)"
    }

    /// Ends `text` with a full stop unless it already ends a sentence.
    private static func sentence(_ text: String) -> String {
        text.last.map { ".!?…".contains($0) } == true ? text : text + "."
    }
}
