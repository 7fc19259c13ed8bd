import Foundation
import HTTPTypes
import PostStore
import PostStoreTesting
import Testing

@testable import PostStoreServer

/// The changes feed of the API, `GET /posts/_changes`, and how `GET /posts` advertises it: without a socket.
@Suite struct ChangesFeedAPITests {
    private func get(_ api: PostAPI, _ target: String, headers: HTTPFields = HTTPFields()) async -> APIResponse {
        let parts = target.split(separator: "?", maxSplits: 1).map(String.init)
        return await api.respond(
            to: APIRequest(method: .get, path: parts[0], query: parts.count > 1 ? parts[1] : nil, headers: headers)
        )
    }

    private func changes(_ response: APIResponse) throws -> (since: ChangeToken?, changes: PostChanges) {
        try PostChangesJSON.decode(Data(response.body))
    }

    @Test func aListOfEveryPostCarriesTheTokenOfItsState() async throws {
        let store = InMemoryPostStore()
        try await store.upsert(SamplePosts.make(count: 12))
        let api = PostAPI(store: store, allowsWrites: false, maximumLimit: 100)
        let token = await store.changeToken().description
        for target in ["/posts", "/posts?_page=2&_limit=5", "/posts?_start=3&_end=6", "/posts?_sort=id"] {
            #expect(await get(api, target).headers[.changesToken] == token, "\(target)")
        }
        for target in [
            "/posts?userId=1", "/posts?id=3", "/posts?q=lorem", "/posts?_sort=-id", "/users/1/posts",
            "/posts?title_like=a", "/posts/1",
        ] {
            #expect(await get(api, target).headers[.changesToken] == nil, "\(target) is not every post")
        }
        let first = await get(api, "/posts")
        let notModified = await get(api, "/posts", headers: [.ifNoneMatch: try #require(first.headers[.eTag])])
        #expect(notModified.status == .notModified && notModified.headers[.changesToken] == token)
    }

    @Test func theFeedAnswersEveryPostThenOnlyTheChanges() async throws {
        let store = InMemoryPostStore()
        try await store.upsert(SamplePosts.make(count: 5))
        let api = PostAPI(store: store, allowsWrites: false, maximumLimit: 100)

        let whole = await get(api, "/posts/_changes")
        #expect(whole.status == .ok && whole.headers[.contentType]?.hasPrefix("application/json") == true)
        let (noToken, all) = try changes(whole)
        #expect(noToken == nil && all.posts == SamplePosts.make(count: 5) && all.isCaughtUp)
        #expect(whole.headers[.changesToken] == all.next.description)

        let edited = Post(userId: 1, id: 2, title: "edited", body: "body")
        try await store.upsert([edited])
        try await store.delete(ids: [4])
        try await store.upsert(SamplePosts.make(count: 1, firstId: 6))
        let step = await get(api, "/posts/_changes?since=\(all.next)&limit=1")
        let (since, first) = try changes(step)
        #expect(since == all.next && first.posts == [edited] && first.deletedIds.isEmpty && !first.isCaughtUp)
        let (_, rest) = try changes(await get(api, "/posts/_changes?since=\(first.next)"))
        #expect(rest.deletedIds == [4] && rest.posts.map(\.id) == [6] && rest.isCaughtUp)
        #expect(rest.next == (await store.changeToken()))
        let repeated = await get(
            api,
            "/posts/_changes?since=\(first.next)",
            headers: [.ifNoneMatch: step.headers[.eTag]!]
        )
        #expect(repeated.status == .ok, "another request's tag")
    }

    @Test(arguments: [
        ("since=abc", 400, "not a change token"), ("since=x-1&since=x-2", 400, "once"),
        ("limit=0", 400, "limit"), ("limit=1000001", 400, "limit"), ("wait=-1", 400, "wait"),
        ("wait=soon", 400, "wait"), ("wait=nan", 400, "wait"), ("from=1", 400, "Unknown parameter from"),
        ("since=0123456789abcdef-1", 410, "another store"),
    ])
    func badRequestsAreRefusedWithOneLine(query: String, status: Int, mentions: String) async throws {
        let api = PostAPI(
            store: InMemoryPostStore(posts: SamplePosts.make(count: 2)),
            allowsWrites: false,
            maximumLimit: 100
        )
        let response = await get(api, "/posts/_changes?\(query)")
        #expect(response.status.code == status)
        let message = String(decoding: response.body, as: UTF8.self)
        #expect(message.hasPrefix("{\"error\": ") && message.contains(mentions), "\(message)")
    }

    @Test func theFeedTakesReadsOnly() async throws {
        let api = PostAPI(store: InMemoryPostStore(), allowsWrites: true, maximumLimit: 100)
        let response = await api.respond(to: APIRequest(method: .post, path: "/posts/_changes", body: Array("{}".utf8)))
        #expect(response.status == .methodNotAllowed && response.headers[.allow] == "GET, HEAD, OPTIONS")
    }

    @Test func aHeldRequestIsAnsweredByTheNextWriteOfThisServer() async throws {
        let store = InMemoryPostStore(posts: SamplePosts.make(count: 3))
        let api = PostAPI(store: store, allowsWrites: true, maximumLimit: 100, maximumWait: .seconds(600))
        let token = await store.changeToken()
        let held = Task { await get(api, "/posts/_changes?since=\(token)&wait=600") }
        await waitUntilHeld(api, by: 1)
        let written = await api.respond(
            to: APIRequest(
                method: .put,
                path: "/posts/2",
                body: Array(#"{"userId": 9, "title": "t", "body": "b"}"#.utf8)
            )
        )
        #expect(written.status == .ok)
        let (_, answer) = try changes(await held.value)
        #expect(answer.posts == [Post(userId: 9, id: 2, title: "t", body: "b")] && answer.isCaughtUp)
    }

    @Test func aHeldRequestSeesAWriteMadeBesideTheServer() async throws {
        let store = InMemoryPostStore(posts: SamplePosts.make(count: 3))
        let api = PostAPI(store: store, allowsWrites: false, maximumLimit: 100, maximumWait: .seconds(600))
        let token = await store.changeToken()
        let held = Task { await get(api, "/posts/_changes?since=\(token)&wait=600") }
        await waitUntilHeld(api, by: 1)
        try await store.delete(ids: [1])
        let (_, answer) = try changes(await held.value)
        #expect(answer.deletedIds == [1])
    }

    @Test func aWaitWithoutAWriteEndsInAnEmptyAnswerAtTheSameToken() async throws {
        let store = InMemoryPostStore(posts: SamplePosts.make(count: 3))
        let api = PostAPI(store: store, allowsWrites: false, maximumLimit: 100)
        let token = await store.changeToken()
        let response = await get(api, "/posts/_changes?since=\(token)&wait=0.05")
        let (_, answer) = try changes(response)
        #expect(answer == PostChanges(posts: [], deletedIds: [], next: token, isCaughtUp: true))
    }

    @Test func stoppingTheWatcherAnswersHeldRequestsAtOnce() async throws {
        let store = InMemoryPostStore(posts: SamplePosts.make(count: 3))
        let api = PostAPI(store: store, allowsWrites: false, maximumLimit: 100, maximumWait: .seconds(600))
        let token = await store.changeToken()
        let held = (0..<3).map { _ in Task { await get(api, "/posts/_changes?since=\(token)&wait=600") } }
        await waitUntilHeld(api, by: 3)
        api.watcher.stop()
        for request in held {
            #expect(try changes(await request.value).changes.count == 0)
        }
        // A request after the stop is not held.
        #expect(try changes(await get(api, "/posts/_changes?since=\(token)&wait=600")).changes.next == token)
    }

    @Test func theExtraTimeOfARequestIsItsWait() {
        let api = PostAPI(store: InMemoryPostStore(), allowsWrites: false, maximumLimit: 100, maximumWait: .seconds(20))
        let changes = api.route(forPath: "/posts/_changes")
        #expect(api.extraTime(for: changes, query: "since=a-1&wait=2.5") == .milliseconds(2500))
        #expect(api.extraTime(for: changes, query: "wait=99") == .seconds(20), "the server's bound")
        #expect(api.extraTime(for: api.route(forPath: "/posts"), query: "wait=2") == .zero)
        #expect(api.extraTime(for: changes, query: "wait=x") == .zero)
    }

    /// Waits for `count` requests to be held by the API's watcher.
    private func waitUntilHeld(_ api: PostAPI, by count: Int) async {
        await api.watcher.waiters(atLeast: count)
    }
}
