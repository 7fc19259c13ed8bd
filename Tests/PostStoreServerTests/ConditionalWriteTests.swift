import Foundation
import HTTPTypes
import PostStore
import PostStoreTesting
import Testing

@testable import PostStoreServer

/// Optimistic concurrency on served writes: each post's strong `ETag`, `If-Match` on `PUT`, `PATCH` and `DELETE`,
/// `If-None-Match: *` on `POST`; without a socket.
@Suite struct ConditionalWriteTests {
    private let store = InMemoryPostStore(posts: SamplePosts.make(count: 5))
    private var api: PostAPI { PostAPI(store: store, allowsWrites: true, maximumLimit: 100) }

    private func send(
        _ method: HTTPRequest.Method,
        _ path: String,
        _ headers: HTTPFields = [:],
        _ json: String = ""
    ) async -> APIResponse {
        await api.respond(to: APIRequest(method: method, path: path, headers: headers, body: Array(json.utf8)))
    }

    private let edit = #"{"userId": 9, "title": "edited", "body": "with care"}"#

    @Test func eachPostHasATagOfItsOwn() async throws {
        let tag = try #require(await send(.get, "/posts/2").headers[.eTag])
        #expect(tag.hasPrefix("\"p") && !tag.hasPrefix("W/"))
        try await store.upsert([Post(userId: 1, id: 3, title: "another", body: "post")])
        #expect(await send(.get, "/posts/2").headers[.eTag] == tag, "another post's change leaves it")
        #expect(await send(.get, "/posts/2", [.ifNoneMatch: tag]).status == .notModified)
        try await store.upsert([Post(userId: 1, id: 2, title: "this", body: "post")])
        #expect(await send(.get, "/posts/2").headers[.eTag] != tag)
    }

    @Test(arguments: [HTTPRequest.Method.put, .patch, .delete])
    func aWriteNamingTheVersionItReadGoesThroughAndAStaleOneIsRefused(method: HTTPRequest.Method) async throws {
        let read = try #require(await send(.get, "/posts/2").headers[.eTag])
        let json = method == .delete ? "" : edit
        // Another client changes the post after this one read it.
        try await store.upsert([Post(userId: 1, id: 2, title: "meanwhile", body: "elsewhere")])
        let current = try #require(await send(.get, "/posts/2").headers[.eTag])
        let refused = await send(method, "/posts/2", [.ifMatch: read], json)
        #expect(refused.status == .preconditionFailed && refused.headers[.eTag] == current)
        #expect(String(decoding: refused.body, as: UTF8.self).contains("If-Match names no current version of post 2"))
        #expect(try await store.post(id: 2)?.title == "meanwhile", "nothing was written")
        let weak = await send(method, "/posts/2", [.ifMatch: "W/" + current], json)
        #expect(weak.status == .preconditionFailed, "If-Match compares strongly")

        let written = await send(method, "/posts/2", [.ifMatch: current], json)
        #expect(written.status == .ok)
        if method == .delete {
            #expect(try await store.post(id: 2) == nil)
        } else {
            let post = try #require(try await store.post(id: 2))
            #expect(post.title == "edited" && written.headers[.eTag] == EntityTag.tag(of: post))
        }
    }

    @Test func anyVersionAndAMissingPost() async throws {
        #expect(await send(.put, "/posts/3", [.ifMatch: "*"], edit).status == .ok)
        #expect(await send(.put, "/posts/99", [.ifMatch: "*"], edit).status == .preconditionFailed)
        #expect(await send(.delete, "/posts/99", [.ifMatch: "\"p0\""]).status == .preconditionFailed)
        #expect(await send(.put, "/posts/99", [:], edit).status == .notFound, "without a condition, as before")
    }

    @Test func aCreateThatMustNotOverwriteNeverDoes() async throws {
        let existing = #"{"id": 4, "userId": 1, "title": "t", "body": "b"}"#
        let refused = await send(.post, "/posts", [.ifNoneMatch: "*", .contentType: "application/json"], existing)
        #expect(refused.status == .preconditionFailed)
        #expect(await send(.post, "/posts", [:], existing).status == .conflict, "without a condition, as before")
        #expect(try await store.post(id: 4) == SamplePosts.make(count: 5)[3])
        let created = await send(
            .post,
            "/posts",
            [.ifNoneMatch: "*"],
            #"{"id": 40, "userId": 1, "title": "t", "body": "b"}"#
        )
        #expect(created.status == .created && created.headers[.eTag] != nil)
    }

    /// A request to a server over a racing store: another process writes after the server's read.
    private func send(
        _ method: HTTPRequest.Method,
        _ path: String,
        _ headers: HTTPFields = [:],
        _ json: String = "",
        over store: RacingStore
    ) async -> APIResponse {
        let api = PostAPI(store: store, allowsWrites: true, maximumLimit: 100)
        return await api.respond(to: APIRequest(method: method, path: path, headers: headers, body: Array(json.utf8)))
    }

    @Test(arguments: [HTTPRequest.Method.put, .patch, .delete])
    func anotherProcesssWriteBetweenTheReadAndTheWriteIsNeverLost(method: HTTPRequest.Method) async throws {
        let posts = SamplePosts.make(count: 5)
        let theirs = Post(userId: 7, id: 2, title: "another server's", body: "write")
        let tag = EntityTag.tag(of: posts[1])
        let store = RacingStore(posts: posts) { try await $0.upsert([theirs]) }
        let json = method == .delete ? "" : method == .put ? edit : #"{"title": "mine"}"#

        let answer = await send(method, "/posts/2", [.ifMatch: tag], json, over: store)

        #expect(answer.status == .preconditionFailed, "the tag read no longer holds: \(answer.status)")
        #expect(answer.headers[.eTag] == EntityTag.tag(of: theirs))
        #expect(try await store.post(id: 2) == theirs, "the other write stands")
    }

    @Test func aPatchWithoutAConditionIsAppliedToThePostAsItIsNow() async throws {
        let posts = SamplePosts.make(count: 5)
        let theirs = Post(userId: 7, id: 2, title: "another server's", body: "their body")
        let store = RacingStore(posts: posts) { try await $0.upsert([theirs]) }

        let answer = await send(.patch, "/posts/2", [:], #"{"title": "mine"}"#, over: store)

        #expect(answer.status == .ok)
        #expect(try await store.post(id: 2) == Post(userId: 7, id: 2, title: "mine", body: "their body"))
    }

    @Test func twoCreatesNeverTakeOneId() async throws {
        let posts = SamplePosts.make(count: 5)
        let theirs = Post(userId: 7, id: 6, title: "another server's", body: "new post")
        let given = RacingStore(posts: posts) { try await $0.upsert([theirs]) }
        let created = #"{"id": 6, "userId": 1, "title": "mine", "body": "b"}"#
        #expect(await send(.post, "/posts", [:], created, over: given).status == .conflict)
        #expect(try await given.post(id: 6) == theirs)

        // Without an id, the server takes the next one: when another server took it first, the one after.
        let next = RacingStore(posts: posts) { try await $0.upsert([theirs]) }
        let answer = await send(.post, "/posts", [:], #"{"userId": 1, "title": "mine", "body": "b"}"#, over: next)
        #expect(answer.status == .created && answer.headers[.location]?.hasSuffix("/posts/7") == true)
        #expect(try await next.post(id: 6) == theirs)
        #expect(try await next.post(id: 7)?.title == "mine")
    }
}
