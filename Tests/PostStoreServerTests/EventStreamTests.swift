import Foundation
import HTTPTypes
import PostStore
import PostStoreSQLite
import PostStoreTestSupport
import PostStoreTesting
import Testing

@testable import PostStoreServer

/// The list routes as Server-Sent Events, over a real server and socket: the result now, an event per change of
/// it with the store's revision as its id, `Last-Event-ID` on reconnecting, and the end of the stream.
@Suite struct EventStreamTests {
    private static let posts = SamplePosts.make(count: 20)

    @Test func aListStreamsItsResultThenOneEventPerWriteThatChangesIt() async throws {
        let store = InMemoryPostStore(posts: Self.posts)
        try await RunningServer.with(store) { client in
            let reader = try EventStreamReader(port: client.port, target: "/users/1/posts?_limit=3")
            let head = try await reader.head()
            #expect(head.status == 200 && head.header("content-type") == "text/event-stream; charset=utf-8")
            #expect(head.header("cache-control") == "no-cache")
            let first = try await reader.events(atLeast: 1)
            #expect(first == [Self.event(Array(Self.posts.prefix(3)), id: await store.changeToken())])

            // Another user's post, and one of user 1's past the window (the total changes, the posts sent do not),
            // change nothing here; the edit of one of these does.
            try await store.upsert([Post(userId: 2, id: 15, title: "another user's", body: "b")])
            try await store.delete(ids: [9])
            let edited = Post(userId: 1, id: 2, title: "edited", body: "b")
            try await store.upsert([edited])
            let events = try await reader.events(atLeast: 2)
            let expected = [Self.posts[0], edited, Self.posts[2]]
            #expect(events == first + [Self.event(expected, id: await store.changeToken())])
        }
    }

    @Test func aClientReconnectingWithTheCurrentRevisionWaitsForTheNextChangeAndAnOlderOneGetsTheResultAtOnce()
        async throws
    {
        let store = InMemoryPostStore(posts: Self.posts)
        try await RunningServer.with(store) { client in
            let older = await store.changeToken()
            try await store.upsert([Post(userId: 1, id: 1, title: "edited once", body: "b")])
            let current = await store.changeToken()

            let stale = try EventStreamReader(
                port: client.port,
                target: "/posts?_limit=2",
                headers: ["Last-Event-ID": older.description]
            )
            #expect(try await stale.events(atLeast: 1).first?.id == current.description, "the result at once")

            let upToDate = try EventStreamReader(
                port: client.port,
                target: "/posts?_limit=2",
                headers: ["Last-Event-ID": current.description]
            )
            _ = try await upToDate.head()
            try await store.upsert([Post(userId: 1, id: 1, title: "edited twice", body: "b")])
            let events = try await upToDate.events(atLeast: 1)
            #expect(events.count == 1 && events[0].data.contains("edited twice"), "only the change: \(events)")
            #expect(events[0].id == (await store.changeToken()).description)
        }
    }

    @Test func stoppingTheServerEndsEveryStream() async throws {
        let store = InMemoryPostStore(posts: Self.posts)
        let readers = try await RunningServer.with(store) { client in
            let readers = try (1...3).map { _ in try EventStreamReader(port: client.port, target: "/posts") }
            for reader in readers { try await reader.events(atLeast: 1) }
            return readers
        }
        for reader in readers {
            #expect(try await reader.eventsUntilClosed().count == 1, "the stream ended cleanly: \(reader.body)")
        }
    }

    @Test func aStoreDeletedWhileStreamedEndsTheStreamWithAnErrorEvent() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("posts.sqlite")
        let store = try SQLitePostStore(path: path)
        try await store.upsert(Self.posts)
        try await RunningServer.with(store) { client in
            let reader = try EventStreamReader(port: client.port, target: "/posts?_limit=1")
            try await reader.events(atLeast: 1)
            try FileManager.default.removeItem(atPath: path)
            let events = try await reader.eventsUntilClosed()
            #expect(events.count == 2 && events[1].name == "error", "\(events)")
            #expect(events.last?.data.contains("deleted or moved") == true, "\(events)")
        }
    }

    @Test(arguments: [
        ("text/event-stream", true),
        ("TEXT/Event-Stream", true),
        ("application/json, text/event-stream;q=0.5", true),
        ("text/event-stream;q=0, application/json", false),
        ("text/event-stream; q=0.0", false),
        ("application/json", false),
        ("*/*", false),
    ])
    func anEventStreamIsWhatAcceptNames(accept: String, isStream: Bool) {
        var headers = HTTPFields()
        headers[.accept] = accept
        #expect(EventStream.isWanted(by: APIRequest(method: .get, path: "/posts", headers: headers)) == isStream)
        #expect(!EventStream.isWanted(by: APIRequest(method: .head, path: "/posts", headers: headers)))
    }

    @Test func aListPagesEventsFollowWhatThePageShowsBeyondItsPosts() async throws {
        let store = InMemoryPostStore(posts: Self.posts)
        try await RunningServer.with(store) { client in
            let window = Array(Self.posts.prefix(3))
            let reader = try EventStreamReader(port: client.port, target: "/_page/live/posts?_page=1&_limit=3")
            #expect(try await reader.events(atLeast: 1) == [Self.event(window, id: await store.changeToken())])

            // A post past the window changes the page's counts, not its posts; a sync's record changes its facts.
            try await store.upsert([Post(userId: 9, id: 500, title: "past the window", body: "b")])
            let added = try await reader.events(atLeast: 2)
            #expect(added.last == Self.event(window, id: await store.changeToken()))
            try await store.saveSyncState(SyncState(source: "elsewhere", syncedAt: Date(), fetched: 1))
            #expect(try await reader.events(atLeast: 3).last?.data == added.last?.data)

            let document = try await client.send("GET", "/_page/live/posts", headers: ["Accept": "text/html"])
            #expect(document.status == 406 && document.text.contains("Server-Sent Events"))
            let elsewhere = try await client.send("GET", "/_page/live/nowhere")
            #expect(elsewhere.status == 404 && elsewhere.text.contains("/_page/live/posts"))
        }
    }

    private static func event(_ posts: [Post], id: ChangeToken) -> EventStreamReader.Event {
        EventStreamReader.Event(id: id.description, data: String(decoding: PostJSON.encode(posts), as: UTF8.self))
    }
}
