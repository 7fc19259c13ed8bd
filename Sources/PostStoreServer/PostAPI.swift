import HTTPTypes
import PostStore

/// JSONPlaceholder's `/posts` API over one store, json-server's conventions: routing, parameters, `ETag`s and
/// writes, independent of the HTTP server that carries it (``PostServer``), so that it is tested without one.
///
/// Routes: `GET`/`HEAD` `/posts`, `/posts/:id` and `/users/:id/posts`; `OPTIONS` on each; with writes on,
/// `POST /posts` and `PUT`/`PATCH`/`DELETE /posts/:id`. Every refusal is a JSON `{"error": "…"}`.
struct PostAPI: Sendable {
    /// The store served.
    let store: any PostStoreProtocol
    /// Whether `POST`, `PUT`, `PATCH` and `DELETE` are served (else 405).
    let allowsWrites: Bool
    /// The largest window a list request may ask for.
    let maximumLimit: Int
    /// Orders this server's writes: a `POST` chooses its id and writes in one turn.
    private let writeTurns = WriteTurns()

    init(store: any PostStoreProtocol, allowsWrites: Bool, maximumLimit: Int) {
        self.store = store
        self.allowsWrites = allowsWrites
        self.maximumLimit = maximumLimit
    }

    /// The response to a request; never throws: every failure is an answer.
    func respond(to request: APIRequest) async -> APIResponse {
        do {
            return try await route(request)
        } catch let error as APIError {
            return error.response
        } catch let error as PostStoreError {
            return APIError.store(error).response
        } catch is CancellationError {
            return APIError(.serviceUnavailable, "The server is stopping; try again.").response
        } catch {
            return APIError(.internalServerError, "The request failed: \(error)").response
        }
    }

    /// The answer to a request that its route or method alone refuses (a 404, a 405), or `nil`: asked before the
    /// body is read, so that a body is judged only where a write is served.
    func refusal(of method: HTTPRequest.Method, on path: String) -> APIResponse? {
        do {
            _ = try admit(method, on: path)
            return nil
        } catch {
            return error.response
        }
    }

    /// What the path names and the methods it takes, or the 404 or 405 that refuses the request.
    private func admit(
        _ method: HTTPRequest.Method,
        on path: String
    ) throws(APIError) -> (resource: Resource, allowed: [HTTPRequest.Method]) {
        let resource = try Self.resource(at: path)
        let allowed = Self.allowedMethods(for: resource, writes: allowsWrites)
        guard allowed.contains(method) else { throw notAllowed(method, on: path, resource: resource, allowed: allowed) }
        return (resource, allowed)
    }

    /// What a path names.
    private enum Resource {
        case list(user: Int?)
        case post(id: Int)
    }

    private func route(_ request: APIRequest) async throws -> APIResponse {
        let method = request.method
        let (resource, allowed) = try admit(method, on: request.path)
        switch (resource, method) {
        case (_, .options):
            var headers = HTTPFields()
            headers[.allow] = allowed.map(\.rawValue).joined(separator: ", ")
            return APIResponse(status: .noContent, headers: headers)
        case (.list(let user), .get), (.list(let user), .head):
            return try await list(request, user: user)
        case (.post(let id), .get), (.post(let id), .head):
            return try await post(id, request)
        case (.list, .post):
            return try await create(request)
        case (.post(let id), .put), (.post(let id), .patch):
            return try await update(id, request)
        case (.post(let id), .delete):
            return try await delete(id, request)
        default:
            throw notAllowed(method, on: request.path, resource: resource, allowed: allowed)
        }
    }

    private static func resource(at path: String) throws(APIError) -> Resource {
        // Segments are percent-decoded as the query is (`/posts/%31` is `/posts/1`).
        let segments = try path.split(separator: "/").map { segment throws(APIError) in
            Substring(try QueryParameters.percentDecoded(segment, plusIsSpace: false))
        }
        switch segments.count {
        case 1 where segments[0] == "posts":
            return .list(user: nil)
        case 2 where segments[0] == "posts":
            return .post(id: try identifier(segments[1], "post id"))
        case 3 where segments[0] == "users" && segments[2] == "posts":
            return .list(user: try identifier(segments[1], "user id"))
        default:
            throw APIError(.notFound, "No such route: \(path). The API serves /posts, /posts/:id and /users/:id/posts.")
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
        case .list: return reads
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
        if let notModified = try await notModified(request) { return notModified }
        let page = try await read(list)
        let body = Self.json(page.posts)
        var response = answer(body, revision: page.revision, to: request)
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

    /// The list's page: the store's answer, or with field filters, the store's answer without the window, filtered
    /// here, then windowed (every post the store's part selects is read).
    private func read(_ list: PostListRequest) async throws -> PostPage {
        guard !list.filters.isEmpty else { return try await store.readPage(list.query) }
        let selected = try await store.readPage(list.query.withoutWindow)
        let matches = selected.posts.filter { post in list.filters.allSatisfy { $0.admits(post) } }
        return PostPage(posts: list.query.window(of: matches), total: matches.count, revision: selected.revision)
    }

    private func post(_ id: Int, _ request: APIRequest) async throws -> APIResponse {
        try Self.refuseParameters(request)
        if let notModified = try await notModified(request) { return notModified }
        let page = try await store.readPage(PostQuery(ids: [id]))
        guard let post = page.posts.first else { throw APIError(.notFound, "There is no post \(id).") }
        return answer(Self.json(post), revision: page.revision, to: request)
    }

    /// A `304` when the request's `If-None-Match` names the store's current revision for it: decided without
    /// reading a post.
    private func notModified(_ request: APIRequest) async throws -> APIResponse? {
        guard request.headers[.ifNoneMatch] != nil, let revision = try await store.revisionIfKept() else { return nil }
        let tag = EntityTag.tag(version: revision, request: request)
        guard let matched = EntityTag.match(in: request, tag: tag, orAnything: false) else { return nil }
        var headers = HTTPFields()
        headers[.eTag] = matched
        headers[.cacheControl] = "no-cache"
        return APIResponse(status: .notModified, headers: headers)
    }

    /// A read's answer with its `ETag` and `Cache-Control` (revalidate each time): a `200` with the body, or a
    /// `304` when `If-None-Match` names the tag — decided here, after the read, for a store that keeps no revision
    /// (its tag is the body's digest), or for `If-None-Match: *`, which names any post that exists.
    private func answer(_ body: [UInt8], revision: String?, to request: APIRequest) -> APIResponse {
        var headers = HTTPFields()
        let tag = EntityTag.tag(version: revision ?? EntityTag.version(ofBody: body), request: request)
        headers[.eTag] = tag
        headers[.cacheControl] = "no-cache"
        if request.headers[.ifNoneMatch] != nil, EntityTag.isMatched(by: request, tag: tag) {
            return APIResponse(status: .notModified, headers: headers)
        }
        return APIResponse(status: .ok, headers: headers, json: body)
    }

    /// Refuses parameters on a route that takes none (`_`, a cache buster, aside).
    private static func refuseParameters(_ request: APIRequest) throws {
        let parameters = try QueryParameters(request.query)
        if let name = parameters.names.first(where: { $0 != "_" }) {
            throw APIError.badRequest("Unknown parameter \(name): \(request.path) takes no parameters.")
        }
    }

    // MARK: - Writes

    private func create(_ request: APIRequest) async throws -> APIResponse {
        try Self.refuseParameters(request)
        let fields = try PostWriteFields(json: request.body)
        return try await writeTurns.inTurn {
            let id: Int
            if let given = fields.id {
                if try await store.post(id: given) != nil {
                    throw APIError(.conflict, "Post \(given) exists; PUT /posts/\(given) replaces it.")
                }
                id = given
            } else {
                let last = try await store.query(PostQuery(sort: .idDescending, limit: 1)).first?.id ?? 0
                guard last < Int.max else { throw APIError(.conflict, "No id is left after \(last); give one.") }
                id = last + 1
            }
            let post = try fields.post(id: id)
            try await store.upsert([post])
            var headers = HTTPFields()
            headers[.location] = "\(request.origin)/posts/\(id)"
            return APIResponse(status: .created, headers: headers, json: Self.json(post))
        }
    }

    private func update(_ id: Int, _ request: APIRequest) async throws -> APIResponse {
        try Self.refuseParameters(request)
        let fields = try PostWriteFields(json: request.body)
        return try await writeTurns.inTurn {
            guard let stored = try await store.post(id: id) else {
                throw APIError(.notFound, "There is no post \(id); POST /posts creates one.")
            }
            let post = request.method == .patch ? try fields.patching(stored) : try fields.post(id: id)
            try await store.upsert([post])
            return APIResponse(status: .ok, json: Self.json(post))
        }
    }

    private func delete(_ id: Int, _ request: APIRequest) async throws -> APIResponse {
        try Self.refuseParameters(request)
        let deleted = try await writeTurns.inTurn { try await store.delete(ids: [id]) }
        guard deleted > 0 else { throw APIError(.notFound, "There is no post \(id).") }
        return APIResponse(status: .ok, json: Array("{}".utf8))
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
}
