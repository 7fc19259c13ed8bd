import HTTPTypes
import PostStore
import PostStoreEngines
import PostStorePages

/// JSONPlaceholder's `/posts` API over one store, json-server's conventions: routing, parameters, `ETag`s and
/// writes, independent of the HTTP server that carries it (``PostServer``), so that it is tested without one.
///
/// Routes: `GET`/`HEAD` `/posts`, `/posts/:id`, `/users/:id/posts` and the changes feed `/posts/_changes`;
/// `OPTIONS` on each; with writes on, `POST /posts` and `PUT`/`PATCH`/`DELETE /posts/:id`. Every refusal is a JSON
/// `{"error": "…"}`, or a page for a browser. For people, `GET /` and the list and post routes asked for as HTML are
/// pages (see `PostAPI+Pages.swift`), with their style sheet and script under `/_page/` and a list page's events
/// under `/_page/live/`.
struct PostAPI: Sendable {
    /// The store served.
    let store: any PostStoreProtocol
    /// Whether `POST`, `PUT`, `PATCH` and `DELETE` are served (else 405).
    let allowsWrites: Bool
    /// The origin, besides the server's own, whose pages may write (`Origin`); `nil` for none, `*` for any.
    let writingOrigin: String?
    /// What the pages for people call the store.
    let pageFrame: PageFrame
    /// The largest window a list request may ask for.
    let maximumLimit: Int
    /// The longest a changes request is held while there is no change.
    let maximumWait: Duration
    /// Wakes the changes requests held for the store's next write.
    let watcher: ChangeWatcher
    /// Orders this server's writes: a `POST` chooses its id and writes in one turn.
    private let writeTurns = WriteTurns()

    /// How often a held changes request looks for a write made by another process: a read of the store's token.
    static let watchInterval = Duration.milliseconds(5)

    init(
        store: any PostStoreProtocol,
        allowsWrites: Bool,
        writingOrigin: String? = nil,
        storeName: String = "a store",
        maximumLimit: Int,
        maximumWait: Duration = .seconds(30),
        clock: any ClockProtocol = SystemClock()
    ) {
        self.store = store
        self.allowsWrites = allowsWrites
        self.writingOrigin = writingOrigin
        pageFrame = PageFrame(storeName: storeName)
        self.maximumLimit = maximumLimit
        self.maximumWait = maximumWait
        watcher = ChangeWatcher(store: store, interval: Self.watchInterval, clock: clock)
    }

    /// A request's path, parsed once: what it names, or the 404 that refuses it.
    struct Route: Sendable {
        /// The path as the request gave it.
        let path: String
        fileprivate let resource: Result<Resource, APIError>
    }

    /// Parses a path; the server does it once a request, and hands the route to ``extraTime(for:query:)``,
    /// ``refusal(of:on:accepting:)`` and ``respond(to:on:)``.
    func route(forPath path: String) -> Route {
        Route(path: path, resource: Result { () throws(APIError) in try Self.resource(at: path) })
    }

    /// The response to a request; never throws: every failure is an answer.
    func respond(to request: APIRequest) async -> APIResponse {
        await respond(to: request, on: route(forPath: request.path))
    }

    /// The response to a request whose path is parsed already.
    func respond(to request: APIRequest, on route: Route) async -> APIResponse {
        let refusal: APIError
        do {
            return try await dispatch(request, on: route)
        } catch let error as APIError {
            refusal = error
        } catch let error as PostStoreError {
            refusal = APIError.store(error)
        } catch is CancellationError {
            refusal = APIError(.serviceUnavailable, "The server is stopping; try again.")
        } catch {
            refusal = APIError(.internalServerError, "The request failed: \(error)")
        }
        return answer(refusal, to: request.method, on: request.path, accepting: request.headers[.accept])
    }

    /// The answer to a request that its route or method alone refuses (a 404, a 405), or `nil`: asked before the
    /// body is read, so that a body is judged only where a write is served.
    func refusal(of method: HTTPRequest.Method, on route: Route, accepting accept: String?) -> APIResponse? {
        do {
            _ = try admit(method, on: route)
            return nil
        } catch {
            return answer(error, to: method, on: route.path, accepting: accept)
        }
    }

    /// ``refusal(of:on:accepting:)`` for a path not parsed yet.
    func refusal(of method: HTTPRequest.Method, on path: String, accepting accept: String?) -> APIResponse? {
        refusal(of: method, on: route(forPath: path), accepting: accept)
    }

    /// What the route names and the methods it takes, or the 404 or 405 that refuses the request.
    private func admit(
        _ method: HTTPRequest.Method,
        on route: Route
    ) throws(APIError) -> (resource: Resource, allowed: [HTTPRequest.Method]) {
        let resource = try route.resource.get()
        let allowed = Self.allowedMethods(for: resource, writes: allowsWrites)
        guard allowed.contains(method) else {
            throw notAllowed(method, on: route.path, resource: resource, allowed: allowed)
        }
        return (resource, allowed)
    }

    /// What a path names.
    fileprivate enum Resource: Sendable {
        case home
        case asset(PageAsset)
        case list(user: Int?)
        /// A list page's state as events (``ListPageState``).
        case liveList(user: Int?)
        case post(id: Int)
        case changes
    }

    /// How much longer than the request timeout a request may take: a changes request's `wait`.
    func extraTime(for route: Route, query: String?) -> Duration {
        guard case .changes? = try? route.resource.get(),
            let request = try? ChangesRequest(QueryParameters(query), maximumWait: maximumWait)
        else { return .zero }
        return request.wait
    }

    private func dispatch(_ request: APIRequest, on route: Route) async throws -> APIResponse {
        let method = request.method
        let (resource, allowed) = try admit(method, on: route)
        switch (resource, method) {
        case (_, .options):
            var headers = HTTPFields()
            headers[.allow] = allowed.map(\.rawValue).joined(separator: ", ")
            return APIResponse(status: .noContent, headers: headers)
        case (.home, .get), (.home, .head):
            return try await listPage(request, user: nil, isHome: true)
        case (.asset(let asset), .get), (.asset(let asset), .head):
            return Self.answer(asset)
        case (.liveList(let user), .get), (.liveList(let user), .head):
            return try liveListPage(request, user: user)
        case (.list(let user), .get), (.list(let user), .head):
            if Self.wantsPage(request) { return try await listPage(request, user: user) }
            return try await list(request, user: user)
        case (.post(let id), .get), (.post(let id), .head):
            if Self.wantsPage(request) { return try await postPage(id, request) }
            return try await post(id, request)
        case (.changes, .get), (.changes, .head):
            return try await changes(request)
        case (.list, .post):
            try checkOrigin(of: request)
            return try await create(request)
        case (.post(let id), .put), (.post(let id), .patch):
            try checkOrigin(of: request)
            return try await update(id, request)
        case (.post(let id), .delete):
            try checkOrigin(of: request)
            return try await delete(id, request)
        default:
            throw notAllowed(method, on: request.path, resource: resource, allowed: allowed)
        }
    }

    /// Whether a path names the home page.
    static func isHome(_ path: String) -> Bool {
        if case .home? = try? resource(at: path) { return true }
        return false
    }

    private static func resource(at path: String) throws(APIError) -> Resource {
        if path.hasPrefix(ListPage.liveFolder) {
            guard case .list(let user)? = try? resource(at: String(path.dropFirst(ListPage.liveFolder.count - 1)))
            else {
                throw APIError(
                    .notFound,
                    "No such route: \(path). A list page's events are at \(ListPage.liveFolder)posts."
                )
            }
            return .liveList(user: user)
        }
        if path.hasPrefix(PageAsset.folder) {
            guard let asset = PageAsset.at(path) else { throw APIError(.notFound, "No such file: \(path).") }
            return .asset(asset)
        }
        // Segments are percent-decoded as the query is (`/posts/%31` is `/posts/1`).
        let segments = try path.split(separator: "/").map { segment throws(APIError) in
            Substring(try QueryParameters.percentDecoded(segment, plusIsSpace: false))
        }
        switch segments.count {
        case 0:
            return .home
        case 1 where segments[0] == "posts":
            return .list(user: nil)
        case 2 where segments[0] == "posts" && segments[1] == "_changes":
            return .changes
        case 2 where segments[0] == "posts":
            return .post(id: try identifier(segments[1], "post id"))
        case 3 where segments[0] == "users" && segments[2] == "posts":
            return .list(user: try identifier(segments[1], "user id"))
        default:
            throw APIError(
                .notFound,
                "No such route: \(path). The API serves /posts, /posts/:id, /users/:id/posts and /posts/_changes."
            )
        }
    }

    private static func identifier(_ segment: Substring, _ what: String) throws(APIError) -> Int {
        guard let value = Int(segment) else {
            throw APIError(.notFound, "No \(what) \"\(segment)\": ids are whole numbers that fit in 64 bits.")
        }
        return value
    }

    private static func allowedMethods(for resource: Resource, writes: Bool) -> [HTTPRequest.Method] {
        let reads: [HTTPRequest.Method] = [.get, .head, .options]
        guard writes else { return reads }
        switch resource {
        case .list(user: nil): return reads + [.post]
        case .home, .asset, .list, .liveList, .changes: return reads
        case .post: return reads + [.put, .patch, .delete]
        }
    }

    private func notAllowed(
        _ method: HTTPRequest.Method,
        on path: String,
        resource: Resource,
        allowed: [HTTPRequest.Method]
    ) -> APIError {
        var headers = HTTPFields()
        headers[.allow] = allowed.map(\.rawValue).joined(separator: ", ")
        let wouldBeAllowed = Self.allowedMethods(for: resource, writes: true).contains(method)
        let message =
            wouldBeAllowed && !allowsWrites
            ? "Writes are off: \(method.rawValue) \(path) needs a server started with --allow-writes."
            : "\(method.rawValue) is not allowed on \(path); it takes \(headers[.allow] ?? "")."
        return APIError(.methodNotAllowed, message, headers: headers)
    }

    // MARK: - Reads

    private func list(_ request: APIRequest, user: Int?) async throws -> APIResponse {
        let list = try PostListRequest(
            QueryParameters(request.query),
            userOfPath: user,
            maximumLimit: maximumLimit
        )
        if EventStream.isWanted(by: request) { return events(of: list, request) }
        let advertisesFeed = list.selectsEveryPost
        if let notModified = try await notModified(request, advertisingFeed: advertisesFeed) { return notModified }
        let page = try await read(list)
        let body = Self.json(page.posts)
        var response = answer(body, revision: page.revision, to: request)
        // The token of the state this answer comes from, for a copy of the whole collection to follow the feed.
        if advertisesFeed, let token = page.revision.flatMap(ChangeToken.init) {
            response.headers[.changesToken] = token.description
        }
        guard response.status == .ok else { return response }
        if list.isWindowed {
            response.headers[.xTotalCount] = String(page.total)
        }
        if let number = list.page,
            let link = PaginationLinks.header(
                page: number,
                size: list.query.limit ?? 10,
                total: page.total,
                request: request
            )
        {
            response.headers[.link] = link
        }
        return response
    }

    /// The list's pages as Server-Sent Events, as the store changes. Writes the changes feed shows cannot change
    /// the page are skipped (not with field filters, which the feed's check does not know).
    private func events(of list: PostListRequest, _ request: APIRequest) -> APIResponse {
        var isUnchanged: (@Sendable (PostChanges, EventStream.Page) -> Bool)?
        if list.filters.isEmpty, let postsUnchanged = list.query.unchangedByWrites {
            isUnchanged = { changes, page in postsUnchanged(changes, page.page.posts) }
        }
        let observation = PostObservation<EventStream.Page>(
            store: store,
            watcher: watcher,
            concern: .posts,
            isUnchanged: isUnchanged,
            read: { [self] in EventStream.Page(page: try await read(list)) }
        )
        return EventStream.response(streaming: observation, to: request) { $0.page }
    }

    /// The list's page: the store's answer, or with field filters, the store's answer without the window, filtered
    /// here, then windowed (every post the store's part selects is read).
    func read(_ list: PostListRequest) async throws -> PostPage {
        guard !list.filters.isEmpty else { return try await store.readPage(list.query) }
        let selected = try await store.readPage(list.query.withoutWindow)
        let matches = selected.posts.filter { post in list.filters.allSatisfy { $0.admits(post) } }
        return PostPage(posts: list.query.window(of: matches), total: matches.count, revision: selected.revision)
    }

    /// One post, with its own `ETag` (``EntityTag/tag(of:)``), which a write's `If-Match` names.
    private func post(_ id: Int, _ request: APIRequest) async throws -> APIResponse {
        try Self.refuseParameters(request)
        guard let post = try await store.post(id: id) else { throw APIError(.notFound, "There is no post \(id).") }
        let body = Self.json(post)
        return answer(body, tag: EntityTag.tag(ofPostJSON: body), to: request)
    }

    /// A `304` when the request's `If-None-Match` names the store's current revision for it: decided without
    /// reading a post. With `advertisingFeed`, it carries the revision's change token, as the `200` would.
    private func notModified(_ request: APIRequest, advertisingFeed: Bool) async throws -> APIResponse? {
        guard request.headers[.ifNoneMatch] != nil, let revision = try await store.revisionIfKept() else { return nil }
        let tag = EntityTag.tag(version: revision, request: request)
        guard let matched = EntityTag.match(in: request, tag: tag, orAnything: false) else { return nil }
        var headers = HTTPFields()
        headers[.eTag] = matched
        headers[.cacheControl] = "no-cache"
        if advertisingFeed, let token = ChangeToken(revision) { headers[.changesToken] = token.description }
        return APIResponse(status: .notModified, headers: headers)
    }

    /// The changes since a token: answered at once when there are some (or no `wait`), else held until a write
    /// commits, the wait ends or the server stops, then answered from the store's state then. Its `ETag` is the
    /// state's revision with the request, so a repeated request for an unchanged state is a `304`.
    private func changes(_ request: APIRequest) async throws -> APIResponse {
        let changesRequest = try ChangesRequest(QueryParameters(request.query), maximumWait: maximumWait)
        let since = changesRequest.since
        var changes = try await feedAnswer(since: since, limit: changesRequest.limit)
        if let since, changes.count == 0, changesRequest.wait > .zero,
            try await watcher.change(after: since, timeout: changesRequest.wait) != nil
        {
            changes = try await feedAnswer(since: since, limit: changesRequest.limit)
        }
        var response = answer(
            PostChangesJSON.encode(changes, since: since),
            revision: changes.next.description,
            to: request
        )
        response.headers[.changesToken] = changes.next.description
        return response
    }

    /// The store's changes, its `mustRefetch` answered as a `410 Gone`.
    private func feedAnswer(since: ChangeToken?, limit: Int) async throws -> PostChanges {
        do {
            return try await store.changes(since: since, limit: limit)
        } catch let error as PostStoreError where error.code == .mustRefetch {
            throw APIError(.gone, error.message)
        }
    }

    /// A list's answer, tagged with the store's revision and the request (``EntityTag/tag(version:request:)``), or
    /// the body's digest for a store that keeps no revision.
    private func answer(_ body: [UInt8], revision: String?, to request: APIRequest) -> APIResponse {
        answer(
            body,
            tag: EntityTag.tag(version: revision ?? EntityTag.version(ofBody: body), request: request),
            to: request
        )
    }

    /// A read's answer with its `ETag` and `Cache-Control` (revalidate each time): a `200` with the body, or a
    /// `304` when `If-None-Match` names the tag — decided here, after the read, where the revision alone did not
    /// decide it (a post's own tag, a store that keeps no revision, `If-None-Match: *`).
    private func answer(_ body: [UInt8], tag: String, to request: APIRequest) -> APIResponse {
        var headers = HTTPFields()
        headers[.eTag] = tag
        headers[.cacheControl] = "no-cache"
        if request.headers[.ifNoneMatch] != nil, EntityTag.isMatched(by: request, tag: tag) {
            return APIResponse(status: .notModified, headers: headers)
        }
        return APIResponse(status: .ok, headers: headers, json: body)
    }

    /// Refuses parameters on a route that takes none (`_`, a cache buster, aside).
    static func refuseParameters(_ request: APIRequest) throws {
        let parameters = try QueryParameters(request.query)
        if let name = parameters.names.first(where: { $0 != "_" }) {
            throw APIError.badRequest("Unknown parameter \(name): \(request.path) takes no parameters.")
        }
    }

    // MARK: - Writes

    private func create(_ request: APIRequest) async throws -> APIResponse {
        try Self.refuseParameters(request)
        let fields = try PostWriteFields(json: request.body)
        return try await readCheckWrite {
            let id: Int
            if let given = fields.id {
                if let stored = try await store.post(id: given) {
                    try Self.checkPreconditions(of: request, on: given, stored: stored)
                    throw APIError(.conflict, "Post \(given) exists; PUT /posts/\(given) replaces it.")
                }
                id = given
            } else {
                let last = try await store.query(PostQuery(sort: .idDescending, limit: 1)).first?.id ?? 0
                guard last < Int.max else { throw APIError(.conflict, "No id is left after \(last); give one.") }
                id = last + 1
            }
            let post = try fields.post(id: id)
            var changes = PostChangeSet(upserts: [post])
            changes.requiredPosts = [.absent(id: id)]
            try await store.apply(changes)
            watcher.storeDidChange()
            var headers = HTTPFields()
            headers[.location] = "\(request.origin)/posts/\(id)"
            headers[.eTag] = EntityTag.tag(of: post)
            return APIResponse(status: .created, headers: headers, json: Self.json(post))
        }
    }

    private func update(_ id: Int, _ request: APIRequest) async throws -> APIResponse {
        try Self.refuseParameters(request)
        let fields = try PostWriteFields(json: request.body)
        return try await readCheckWrite {
            let stored = try await store.post(id: id)
            try Self.checkPreconditions(of: request, on: id, stored: stored)
            guard let stored else {
                throw APIError(.notFound, "There is no post \(id); POST /posts creates one.")
            }
            let post = request.method == .patch ? try fields.patching(stored) : try fields.post(id: id)
            var changes = PostChangeSet(upserts: [post])
            changes.requiredPosts = [.stored(stored)]
            try await store.apply(changes)
            watcher.storeDidChange()
            var headers = HTTPFields()
            headers[.eTag] = EntityTag.tag(of: post)
            return APIResponse(status: .ok, headers: headers, json: Self.json(post))
        }
    }

    private func delete(_ id: Int, _ request: APIRequest) async throws -> APIResponse {
        try Self.refuseParameters(request)
        let deleted = try await readCheckWrite {
            let stored = try await store.post(id: id)
            try Self.checkPreconditions(of: request, on: id, stored: stored)
            guard let stored else { return 0 }
            var changes = PostChangeSet(deletions: [id])
            changes.requiredPosts = [.stored(stored)]
            return try await store.apply(changes).deleted
        }
        watcher.storeDidChange()
        guard deleted > 0 else { throw APIError(.notFound, "There is no post \(id).") }
        return APIResponse(status: .ok, json: Array("{}".utf8))
    }

    /// Runs a read, its checks and its write in this server's turn, and again (at most five times in all) while the
    /// store finds the post read changed by another process before the write (``PostChangeSet/requiredPosts``):
    /// each time from a new read, so that a request whose `If-Match` no longer holds gets its `412`, and one
    /// without is applied to the post as it is now. Never two writes from one read: no update is lost.
    private func readCheckWrite<Result: Sendable>(_ body: () async throws -> Result) async throws -> Result {
        try await writeTurns.inTurn {
            var attempt = 1
            while true {
                do {
                    return try await body()
                } catch let error as PostStoreError where error.code == .postChanged && attempt < 5 {
                    attempt += 1
                }
            }
        }
    }

    /// Refuses a write whose `If-Match` names no version of the post as it is (or `*` while there is none), or
    /// whose `If-None-Match` names it as it is (or `*` while there is one), with a `412` that carries the post's
    /// `ETag`. Checked in the write's turn: no write of this server comes between the check and the write.
    private static func checkPreconditions(of request: APIRequest, on id: Int, stored: Post?) throws(APIError) {
        let tag = stored.map(EntityTag.tag(of:))
        var headers = HTTPFields()
        if let tag { headers[.eTag] = tag }
        if EntityTag.ifMatch(in: request, tag: tag) == false {
            throw APIError(
                .preconditionFailed,
                stored == nil
                    ? "There is no post \(id) to match If-Match."
                    : "If-Match names no current version of post \(id) (it changed since, or the tag is weak or another's); "
                        + "its ETag is now \(tag ?? ""). GET it again.",
                headers: headers
            )
        }
        if let tag, request.headers[.ifNoneMatch] != nil, EntityTag.isMatched(by: request, tag: tag) {
            throw APIError(
                .preconditionFailed,
                "Post \(id) exists (If-None-Match: \(request.headers[.ifNoneMatch] ?? "")); nothing was written.",
                headers: headers
            )
        }
    }

    // MARK: - Bodies

    /// Posts as JSONPlaceholder sends them: an array indented by two spaces, keys in its order.
    static func json(_ posts: [Post]) -> [UInt8] {
        guard !posts.isEmpty else { return Array("[]".utf8) }
        var writer = JSONWriter()
        writer.raw("[\n  ")
        for (index, post) in posts.enumerated() {
            if index > 0 { writer.raw(",\n  ") }
            writer.post(post, indent: "  ")
        }
        writer.raw("\n]")
        return writer.bytes
    }

    /// One post as JSONPlaceholder sends it.
    static func json(_ post: Post) -> [UInt8] {
        var writer = JSONWriter()
        writer.post(post, indent: "")
        return writer.bytes
    }
}

extension HTTPField.Name {
    /// json-server's count of a windowed list's posts.
    static let xTotalCount = HTTPField.Name("X-Total-Count")!
    /// RFC 8288's links: a paged list's first, previous, next and last pages.
    static let link = HTTPField.Name("Link")!
    /// The change token of the state an answer comes from: on a list of every post, where a copy starts following
    /// the changes feed, and on the feed's own answers.
    static let changesToken = HTTPField.Name("PostStore-Changes-Token")!
}
