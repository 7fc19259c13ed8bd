import HTTPTypes
import PostStore
import PostStorePages

/// The pages for people: `GET /`, and the list and post routes when the request's `Accept` prefers HTML to JSON
/// (a browser's does; a program's `*/*` or `application/json` gets JSON). The server renders them whole, so they
/// read without JavaScript; their script (``PageAsset/script``) follows the store and edits posts.
extension PostAPI {
    /// Whether the request asks for a page: a `GET` or `HEAD` whose `Accept` ranks `text/html` above
    /// `application/json`.
    static func wantsPage(_ request: APIRequest) -> Bool {
        (request.method == .get || request.method == .head) && prefersHTML(request.headers[.accept])
    }

    /// Whether an `Accept` header ranks `text/html` above `application/json` (which `*/*` does not name).
    static func prefersHTML(_ accept: String?) -> Bool {
        guard let accept else { return false }
        let ranges = QualityValues.items(in: accept)
        let html = ranges.filter { $0.value == "text/html" }.map(\.weight).max() ?? 0
        let json = ranges.filter { $0.value == "application/json" }.map(\.weight).max() ?? -1
        return html > 0 && html > json
    }

    /// A list's page. Empty fields of the search form mean no filter: their address without them is a redirect
    /// (`303`), so that the address bar holds the list's link, which gives a program the same posts; so is a window
    /// given in part (`_page`, `_start` or `_limit` alone) or none, completed with ``ListPage/pageSize`` and the first page.
    /// The home page (`isHome`) shows the first ``ListPage/pageSize`` posts at `/`, and its links name that window.
    func listPage(_ request: APIRequest, user: Int?, isHome: Bool = false) async throws -> APIResponse {
        let started = ContinuousClock.now
        let asked = PageAddress(
            path: user.map { "/users/\($0)/posts" } ?? "/posts",
            parameters: try QueryParameters(request.query).pairs.filter { $0.name != "_" }
        )
        let size = min(ListPage.pageSize, maximumLimit)
        var wanted = asked
        wanted.parameters.removeAll { $0.value.isEmpty }
        // A list route's window goes into its address, which then gives a program the same posts.
        wanted = wanted.completingWindow(size: size, fillingNone: !isHome)
        if wanted != asked {
            // A bad parameter is refused where it is, not sent on.
            _ = try PostListRequest(QueryParameters(wanted.query), userOfPath: user, maximumLimit: maximumLimit)
            var headers = HTTPFields()
            headers[.location] = wanted.text
            return APIResponse(status: .seeOther, headers: headers)
        }
        // Only the home page's window can be missing here.
        let address = asked.completingWindow(size: size, fillingNone: true)
        let list = try PostListRequest(QueryParameters(address.query), userOfPath: user, maximumLimit: maximumLimit)
        let html = ListPage(
            frame: pageFrame,
            address: address,
            query: list.query,
            pageNumber: list.page,
            state: try await readState(of: list),
            userOfPath: user
        ).render()
        return Self.timed(Self.pageResponse(html), since: started)
    }

    /// A list page's state as Server-Sent Events, for its script; `406` to a request that does not accept them.
    func liveListPage(_ request: APIRequest, user: Int?) throws -> APIResponse {
        guard EventStream.isWanted(by: request) else {
            throw APIError(.notAcceptable, "\(request.path) sends a list page's changes as Server-Sent Events only.")
        }
        let list = try PostListRequest(QueryParameters(request.query), userOfPath: user, maximumLimit: maximumLimit)
        // Any commit: a sync's record changes what the page shows even when no post changes.
        let observation = PostObservation<ListPageState>(
            store: store,
            watcher: watcher,
            concern: .anyCommit,
            read: { [self] in try await readState(of: list) }
        )
        return EventStream.response(streaming: observation, to: request) { $0.page }
    }

    /// What a list page shows of the store.
    private func readState(of list: PostListRequest) async throws -> ListPageState {
        let page = try await read(list)
        return ListPageState(
            page: page,
            storeCount: list.selectsTheWholeStore ? page.total : try await store.count(),
            lastSync: try await store.syncStates().first
        )
    }

    /// A post's page, with the `ETag` that `GET /posts/:id` sends for it.
    func postPage(_ id: Int, _ request: APIRequest) async throws -> APIResponse {
        let started = ContinuousClock.now
        try Self.refuseParameters(request)
        guard let post = try await store.post(id: id) else { throw APIError(.notFound, "There is no post \(id).") }
        let html = PostDetailPage(
            frame: pageFrame,
            post: post,
            tag: EntityTag.tag(ofPostJSON: Self.json(post)),
            revision: try await store.revisionIfKept(),
            allowsWrites: allowsWrites
        ).render()
        return Self.timed(Self.pageResponse(html), since: started)
    }

    /// A refusal as the request wants it: a page for a browser's `GET`, and for any `GET` of `/` (whose answer is
    /// a page whatever it accepts, like its refusals: `/?_page=0`), else JSON.
    func answer(
        _ refusal: APIError,
        to method: HTTPRequest.Method,
        on path: String,
        accepting accept: String?
    ) -> APIResponse {
        guard method == .get || method == .head, Self.prefersHTML(accept) || Self.isHome(path) else {
            return refusal.response
        }
        var response = Self.pageResponse(
            ErrorPage(frame: pageFrame, status: refusal.status, message: refusal.message).render(),
            status: refusal.status
        )
        for field in refusal.headers { response.headers.append(field) }
        return response
    }

    /// A page's style sheet or script: kept by browsers for a year (its path changes with its bytes).
    static func answer(_ asset: PageAsset) -> APIResponse {
        var headers = HTTPFields()
        headers[.contentType] = asset.contentType
        headers[.cacheControl] = "public, max-age=31536000, immutable"
        return APIResponse(status: .ok, headers: headers, body: asset.bytes)
    }

    /// Refuses a write sent by a page of another origin (its `Origin` header): only the server's own pages, and
    /// the origin its CORS setting names, may write. A program that sends no `Origin` is not a page.
    func checkOrigin(of request: APIRequest) throws(APIError) {
        guard let origin = request.headers[.origin] else {
            guard request.headers[.secFetchSite] != "cross-site" else {
                throw APIError(.forbidden, "Writes from pages of another site are refused.")
            }
            return
        }
        if origin == request.origin || writingOrigin == "*" || origin == writingOrigin { return }
        throw APIError(
            .forbidden,
            "Writes from pages of another origin (\(origin)) are refused: this server takes writes from its own pages"
                + (writingOrigin.map { " and from \($0)" } ?? "") + "."
        )
    }

    /// An answer with the time the server took to make it, in `Server-Timing` (which browsers' tools show).
    private static func timed(_ response: APIResponse, since started: ContinuousClock.Instant) -> APIResponse {
        var response = response
        let elapsed = ContinuousClock.now - started
        let milliseconds = Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000
        response.headers[.serverTiming] = "page;dur=\((milliseconds * 1000).rounded() / 1000)"
        return response
    }
}

extension PostAPI {
    /// An answer carrying a page: HTML, never kept by a cache without asking, under the page policy; `Vary:
    /// Accept`, as the same address answers JSON to a program.
    static func pageResponse(_ html: HTMLWriter, status: HTTPResponse.Status = .ok) -> APIResponse {
        var headers = HTTPFields()
        headers[.contentType] = "text/html; charset=utf-8"
        headers[.cacheControl] = "no-cache"
        headers[.contentSecurityPolicy] = PageFrame.contentSecurityPolicy
        headers[.referrerPolicy] = "same-origin"
        return APIResponse(status: status, headers: headers, body: html.bytes)
    }
}

extension HTTPField.Name {
    /// Where a request came from, as `Fetch Metadata` tells: `same-origin`, `same-site`, `cross-site` or `none`.
    static let secFetchSite = HTTPField.Name("Sec-Fetch-Site")!
    /// How long the server took, for a browser's tools and the benchmark.
    static let serverTiming = HTTPField.Name("Server-Timing")!
    /// What a page's links tell other sites of its address.
    static let referrerPolicy = HTTPField.Name("Referrer-Policy")!
}
