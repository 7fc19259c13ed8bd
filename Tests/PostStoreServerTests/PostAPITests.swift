import Foundation
import HTTPTypes
import PostStore
import PostStoreTestSupport
import Testing

@testable import PostStoreSQLite
@testable import PostStoreServer

/// The routes, validators and writes of the API, without a socket.
@Suite struct PostAPITests {
    private static let posts = (1...25).map {
        Post(userId: ($0 - 1) / 10 + 1, id: $0, title: "title \($0)", body: "body \($0)")
    }

    private func api(_ store: any PostStoreProtocol = InMemoryPostStore(posts: posts), writes: Bool = false) -> PostAPI
    {
        PostAPI(store: store, allowsWrites: writes, maximumLimit: 100)
    }

    private func get(_ api: PostAPI, _ target: String, headers: HTTPFields = HTTPFields()) async -> APIResponse {
        let parts = target.split(separator: "?", maxSplits: 1).map(String.init)
        return await api.respond(
            to: APIRequest(method: .get, path: parts[0], query: parts.count > 1 ? parts[1] : nil, headers: headers)
        )
    }

    private func send(_ api: PostAPI, _ method: HTTPRequest.Method, _ path: String, _ json: String) async -> APIResponse
    {
        await api.respond(to: APIRequest(method: method, path: path, body: Array(json.utf8)))
    }

    private func decoded(_ response: APIResponse) throws -> [Post] {
        try PostJSON.decode(Data(response.body))
    }

    @Test func aListIsJSONPlaceholdersShapeWithTotalsOnlyWhenWindowed() async throws {
        let api = api()
        let all = await get(api, "/posts")
        #expect(all.status == .ok && all.headers[.xTotalCount] == nil)
        #expect(
            String(decoding: all.body, as: UTF8.self).hasPrefix(
                "[\n  {\n    \"userId\": 1,\n    \"id\": 1,\n    \"title\""
            )
        )
        #expect(try decoded(all) == Self.posts)
        let page = await get(api, "/posts?_page=2&_limit=10&_sort=-id")
        #expect(try decoded(page).map(\.id) == Array((6...15).reversed()))
        #expect(page.headers[.xTotalCount] == "25" && page.headers[.link]?.contains("_page=3") == true)
        let nested = await get(api, "/users/3/posts?_limit=2")
        #expect(try decoded(nested).map(\.id) == [21, 22] && nested.headers[.xTotalCount] == "5")
        #expect(try decoded(await get(api, "/posts?q=title+2")).map(\.id) == [2, 12, 20, 21, 22, 23, 24, 25])
    }

    /// Field filters apply before the window: the total, the pages and the links count the filtered posts.
    @Test func fieldFiltersNarrowTheListBeforeItsWindow() async throws {
        let api = api()
        let page = await get(api, "/posts?title_like=TITLE+1&id_ne=1&_sort=-id&_page=2&_limit=4")
        // "title 1" is in titles 1 and 10 to 19; without id 1 that is 10 posts, and page 2 of 4 is 15 to 12.
        #expect(try decoded(page).map(\.id) == [15, 14, 13, 12])
        #expect(
            page.headers[.xTotalCount] == "10"
                && page.headers[.link]?.contains("_page=3&_limit=4>; rel=\"last\"") == true
        )
        let nested = await get(api, "/users/2/posts?id_gte=15&id_lte=17&body=body+16")
        #expect(try decoded(nested).map(\.id) == [16])
        // Another filter is another tag: a client's cache never answers one with another's posts.
        let unfiltered = await get(api, "/posts?_page=2&_limit=4")
        #expect(unfiltered.headers[.eTag] != page.headers[.eTag])
        #expect(await get(api, "/posts?userId_gte=two").status == .badRequest)
    }

    @Test func onePostIsAnObjectAndAMissingOneA404WithAJSONBody() async throws {
        let api = api()
        let one = await get(api, "/posts/7")
        #expect(
            one.status == .ok
                && String(decoding: one.body, as: UTF8.self).hasPrefix("{\n  \"userId\": 1,\n  \"id\": 7,")
        )
        for target in ["/posts/99", "/posts/abc", "/nothing", "/users/x/posts", "/posts/1/comments"] {
            let missing = await get(api, target)
            #expect(missing.status == .notFound, "\(target)")
            #expect(String(decoding: missing.body, as: UTF8.self).hasPrefix("{\"error\": \""), "\(target)")
        }
        #expect(await get(api, "/posts/7?x=1").status == .badRequest)
        #expect(await get(api, "/posts/7?_=123").status == .ok)
    }

    @Test func aMatchingETagIsA304WithoutReadingAPost() async throws {
        let store = ReadCountingStore(posts: Self.posts)
        let api = api(store, writes: true)
        let first = await get(api, "/posts?userId=2")
        let tag = try #require(first.headers[.eTag])
        #expect(tag.hasPrefix("\"") && tag.hasSuffix("\"") && !tag.hasPrefix("W/"))
        let readsBefore = store.postReads
        for header in [tag, "\"other\", \(tag)", "W/\(tag)"] {
            var headers = HTTPFields()
            headers[.ifNoneMatch] = header
            let again = await get(api, "/posts?userId=2", headers: headers)
            #expect(again.status == .notModified && again.body.isEmpty && again.headers[.eTag] == tag, "\(header)")
        }
        #expect(store.postReads == readsBefore)
        // Another request has its own tag; a write that changes a post changes every tag.
        #expect(await get(api, "/posts?userId=3").headers[.eTag] != tag)
        #expect(await send(api, .patch, "/posts/11", #"{"title": "changed"}"#).status == .ok)
        var headers = HTTPFields()
        headers[.ifNoneMatch] = tag
        let changed = await get(api, "/posts?userId=2", headers: headers)
        #expect(changed.status == .ok && changed.headers[.eTag] != tag)
        // A write that changes nothing keeps it.
        let current = try #require(changed.headers[.eTag])
        #expect(
            await send(api, .put, "/posts/12", #"{"userId": 2, "title": "title 12", "body": "body 12"}"#).status == .ok
        )
        #expect(await get(api, "/posts?userId=2").headers[.eTag] == current)
    }

    @Test func aStoreWithoutARevisionIsTaggedByItsBodies() async throws {
        let base = InMemoryPostStore(posts: Self.posts)
        let api = api(UnrevisionedStore(base: base))
        let first = await get(api, "/posts?_page=2")
        #expect(first.status == .ok && first.headers[.xTotalCount] == "25")
        #expect(try decoded(first).map(\.id) == Array(11...20))
        let tag = try #require(first.headers[.eTag])
        var headers = HTTPFields()
        headers[.ifNoneMatch] = tag
        #expect(await get(api, "/posts?_page=2", headers: headers).status == .notModified)
        try await base.upsert([Post(userId: 2, id: 12, title: "changed", body: "")])
        #expect(await get(api, "/posts?_page=2", headers: headers).status == .ok)
    }

    @Test func ifNoneMatchAnythingIsA304ForAPostThatExistsOnly() async {
        var headers = HTTPFields()
        headers[.ifNoneMatch] = "*"
        #expect(await get(api(), "/posts/3", headers: headers).status == .notModified)
        #expect(await get(api(), "/posts/300", headers: headers).status == .notFound)
    }

    @Test func writesAreA405UnlessAllowed() async throws {
        let api = api()
        for (method, path) in [
            (HTTPRequest.Method.post, "/posts"), (.put, "/posts/1"), (.patch, "/posts/1"), (.delete, "/posts/1"),
        ] {
            let refused = await send(api, method, path, "{}")
            #expect(refused.status == .methodNotAllowed && refused.headers[.allow] == "GET, HEAD, OPTIONS")
            #expect(String(decoding: refused.body, as: UTF8.self).contains("--allow-writes"))
        }
        #expect(try await api.store.count() == 25)
    }

    @Test func writesChangeTheStoreOneAtATime() async throws {
        let store = InMemoryPostStore(posts: Self.posts)
        let api = api(store, writes: true)
        let created = await send(api, .post, "/posts", #"{"userId": 9, "title": "new", "body": "text"}"#)
        #expect(created.status == .created && created.headers[.location] == "http://127.0.0.1/posts/26")
        #expect(try await store.post(id: 26) == Post(userId: 9, id: 26, title: "new", body: "text"))
        #expect(
            await send(api, .post, "/posts", #"{"userId": 9, "id": 3, "title": "t", "body": "b"}"#).status == .conflict
        )
        #expect(
            await send(api, .post, "/posts", #"{"userId": 9, "id": 40, "title": "t", "body": "b"}"#).status == .created
        )
        // Concurrent POSTs each get an id of their own.
        let statuses = await withTaskGroup(of: HTTPResponse.Status.self) { group in
            for _ in 0..<20 {
                group.addTask { await send(api, .post, "/posts", #"{"userId": 1, "title": "t", "body": "b"}"#).status }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(statuses.allSatisfy { $0 == .created })
        #expect(try await store.count() == 47)
        #expect(await send(api, .put, "/posts/2", #"{"userId": 5, "title": "t", "body": "b"}"#).status == .ok)
        #expect(try await store.post(id: 2) == Post(userId: 5, id: 2, title: "t", body: "b"))
        #expect(await send(api, .patch, "/posts/2", #"{"body": "patched"}"#).status == .ok)
        #expect(try await store.post(id: 2) == Post(userId: 5, id: 2, title: "t", body: "patched"))
        #expect(await send(api, .put, "/posts/999", #"{"userId": 5, "title": "t", "body": "b"}"#).status == .notFound)
        #expect(await send(api, .delete, "/posts/2", "").status == .ok)
        #expect(await send(api, .delete, "/posts/2", "").status == .notFound)
        #expect(try await store.post(id: 2) == nil)
    }

    @Test(arguments: [
        (#"{"userId": "1", "title": "t", "body": "b"}"#, "\"userId\" must be a whole number"),
        (#"{"userId": 1, "title": 5, "body": "b"}"#, "\"title\" must be a string"),
        (#"{"userId": 1, "title": null, "body": "b"}"#, "\"title\" must be a string"),
        (#"{"userId": 1, "title": "t"}"#, "lacks \"body\""),
        (#"{"userId": 1, "title": "t", "body": "b", "tags": []}"#, "\"tags\" is not a post's"),
        (#"{"userId": true, "title": "t", "body": "b"}"#, "\"userId\" must be a whole number"),
        ("[]", "must be a JSON object"), ("{", "not valid JSON"), ("", "has no body"),
    ])
    func aBadBodyIsA400NamingTheField(body: String, expected: String) async throws {
        let store = InMemoryPostStore(posts: Self.posts)
        let answer = await send(api(store, writes: true), .post, "/posts", body)
        #expect(answer.status == .badRequest)
        let message = try? JSONDecoder().decode([String: String].self, from: Data(answer.body))["error"]
        #expect(message?.contains(expected) == true, "\(message ?? "no message")")
        #expect(try await store.count() == 25)
    }

    @Test func pathsArePercentDecodedAndHugeIdsAreNoIds() async throws {
        #expect(try decoded(await get(api(), "/posts?id=3")) == [Self.posts[2]])
        #expect(await get(api(), "/posts/%33").status == .ok)
        #expect(await get(api(), "/p%6fsts/3").status == .ok)
        let huge = await get(api(), "/posts/99999999999999999999")
        #expect(huge.status == .notFound && String(decoding: huge.body, as: UTF8.self).contains("fit in 64 bits"))
        #expect(await get(api(), "/posts/%zz").status == .badRequest)
    }

    @Test func aWriteTheRouteNeverTakesIsNotBlamedOnTheWriteSwitch() async {
        let answer = await send(api(), .post, "/posts/1", "{}")
        #expect(answer.status == .methodNotAllowed)
        #expect(!String(decoding: answer.body, as: UTF8.self).contains("--allow-writes"))
    }

    @Test func aNumberThatIsNoWholeOneIsNamed() async throws {
        for body in [#"{"userId": 5.5}"#, #"{"userId": 99999999999999999999}"#] {
            let answer = await send(api(writes: true), .patch, "/posts/1", body)
            let message = try? JSONDecoder().decode([String: String].self, from: Data(answer.body))["error"]
            #expect(answer.status == .badRequest && message?.contains("\"userId\" must be a whole number") == true)
        }
    }

    @Test func aStoreFileDeletedWhileServedIsAnswered503() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("posts.sqlite")
        // Reads look for the file every time here; the live store looks at most once a millisecond.
        let served = api(
            try SQLitePostStore(
                path: path,
                mode: .createIfMissing,
                busyTimeout: .seconds(1),
                migrator: SQLiteMigrator(),
                clock: SystemClock(),
                movedCheckInterval: .zero
            )
        )
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        // Made again at the same place, as a new first sync would.
        _ = try await SQLitePostStore(path: path).upsert(Self.posts)
        let answer = await get(served, "/posts/1")
        #expect(answer.status == .serviceUnavailable)
        #expect(String(decoding: answer.body, as: UTF8.self).contains("was deleted or moved while it was open"))
        #expect(String(decoding: answer.body, as: UTF8.self).contains("Restart the server"))
    }

    @Test func optionsTellsTheMethods() async {
        let answer = await api(writes: true).respond(to: APIRequest(method: .options, path: "/posts/1"))
        #expect(answer.status == .noContent && answer.headers[.allow] == "GET, HEAD, OPTIONS, PUT, PATCH, DELETE")
    }
}
