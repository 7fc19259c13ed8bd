import Foundation
import PostStore
import PostStoreHTTP
import PostStoreSQLite
import PostStoreTestSupport
import Testing

@testable import PostStoreServer

/// A real server on 127.0.0.1 over each engine: the bytes on the wire, conditional requests, compression, the
/// sync chain, a store changing under load, and the limits.
@Suite struct PostServerTests {
    private static let posts = (1...120).map {
        Post(userId: ($0 - 1) / 10 + 1, id: $0, title: "title \($0) é", body: "line one\nline \"two\" \($0)")
    }

    @Test(arguments: ServedEngine.available)
    func everyEngineServesTheSameBytes(engine: ServedEngine) async throws {
        let folder = try TemporaryDirectory()
        let store = try await engine.makeStore(in: folder)
        try await store.upsert(Self.posts)
        try await RunningServer.with(store) { client in
            let list = try await client.send("GET", "/posts?userId=3&_sort=-title&_page=1&_limit=4")
            #expect(list.status == 200 && list.header("x-total-count") == "10", "\(list)")
            let expected = Self.posts.filter { $0.userId == 3 }.sorted {
                $0.title.utf8.lexicographicallyPrecedes($1.title.utf8)
            }
            .reversed().prefix(4)
            #expect(list.body == Data(PostAPI.json(Array(expected))))
            #expect(
                list.header("link")?.contains(
                    "<http://127.0.0.1:\(client.port)/posts?userId=3&_sort=-title&_page=3&_limit=4>; rel=\"last\""
                ) == true
            )
            #expect(list.header("content-type") == "application/json; charset=utf-8")
            #expect(list.header("access-control-allow-origin") == "*")

            let head = try await client.send("HEAD", "/posts/5")
            let get = try await client.send("GET", "/posts/5")
            #expect(head.status == 200 && head.body.isEmpty && head.header("content-length") == String(get.body.count))
            #expect(head.header("etag") == get.header("etag") && get.body == Data(PostAPI.json(Self.posts[4])))

            let tag = try #require(get.header("etag"))
            let notModified = try await client.send("GET", "/posts/5", headers: ["If-None-Match": tag])
            #expect(notModified.status == 304 && notModified.body.isEmpty && notModified.header("etag") == tag)
            // A Host header that is no host is refused: it would go into Link and Location.
            #expect(try await client.send("GET", "/posts", headers: ["Host": "a,b>; rel=x"]).status == 400)

            let zipped = try await client.send("GET", "/posts", headers: ["Accept-Encoding": "br, gzip;q=0.5"])
            #expect(zipped.header("content-encoding") == "gzip" && zipped.header("vary") == "Accept, Accept-Encoding")
            #expect(zipped.header("x-content-type-options") == "nosniff")
            #expect(zipped.header("etag")?.hasSuffix("-gzip\"") == true)
            #expect(try gunzip(zipped.body) == Data(PostAPI.json(Self.posts)))
            let zippedTag = try #require(zipped.header("etag"))
            let zippedAgain = try await client.send("GET", "/posts", headers: ["If-None-Match": zippedTag])
            #expect(zippedAgain.status == 304 && zippedAgain.header("etag") == zippedTag)
            let refused = try await client.send("GET", "/posts", headers: ["Accept-Encoding": "gzip;q=0"])
            #expect(refused.header("content-encoding") == nil && refused.body == Data(PostAPI.json(Self.posts)))
        }
    }

    /// Serve A, sync B from it: B equals A; unchanged, the re-sync asks the changes feed and gets none; change A:
    /// exactly the change arrives, by changes alone, whole pages or not.
    @Test(arguments: ServedEngine.available)
    func aMirrorSyncsFromTheServer(engine: ServedEngine) async throws {
        let folder = try TemporaryDirectory()
        let origin = try await engine.makeStore(in: folder)
        try await origin.upsert(Self.posts)
        try await RunningServer.with(origin) { client in
            let mirror = try SQLitePostStore(path: folder.file("mirror.sqlite"))
            for pageSize in [nil, 7] as [Int?] {
                let url = URL(string: "http://127.0.0.1:\(client.port)/posts")!
                let sync = SyncService(
                    dataService: try HTTPPostDataService(url: url, pageSize: pageSize),
                    store: mirror,
                    clock: SystemClock()
                )
                let first = try await sync.sync(SyncOptions(prune: true))
                #expect(try await mirror.query(.all) == (try await origin.query(.all)))
                let again = try await sync.sync(SyncOptions(prune: true))
                #expect(again.byChanges && again.fetched == 0 && again.pages == 1, "\(first) then \(again)")
                #expect(again.summary.changedAnything == false)

                var changed = Self.posts[9]
                changed.title += " (edited \(pageSize ?? 0))"
                try await origin.apply(PostChangeSet(upserts: [changed], deletions: [110 + (pageSize ?? 0)]))
                let third = try await sync.sync(SyncOptions(prune: true))
                #expect(third.updated == 1 && third.deleted == 1 && third.inserted == 0, "\(third)")
                #expect(third.byChanges && third.fetched == 2 && third.unchanged == 0)
                #expect(try await mirror.query(.all) == (try await origin.query(.all)))
            }
        }
    }

    /// Writers replace every post with a new generation while readers fetch: each answer is one generation, its
    /// total and its tag from the same state.
    @Test(arguments: ServedEngine.available)
    func eachAnswerIsOneStateOfAChangingStore(engine: ServedEngine) async throws {
        let folder = try TemporaryDirectory()
        let store = try await engine.makeStore(in: folder)
        func generation(_ number: Int) -> [Post] {
            (1...(40 + number % 7)).map { Post(userId: 1, id: $0, title: "generation \(number)", body: "") }
        }
        try await store.upsert(generation(0))
        try await RunningServer.with(store) { client in
            let seen = try await withThrowingTaskGroup(of: [String: Set<String>].self) { group in
                group.addTask {
                    for number in 1...30 {
                        try await store.apply(PostChangeSet(upserts: generation(number), prune: true))
                    }
                    return [:]
                }
                for _ in 0..<3 {
                    group.addTask {
                        var tags: [String: Set<String>] = [:]
                        for _ in 0..<30 {
                            let answer = try await client.send("GET", "/posts?_limit=100")
                            let posts = try PostJSON.decode(answer.body)
                            let titles = Set(posts.map(\.title))
                            #expect(titles.count == 1, "a mix: \(titles)")
                            let number = Int(titles.first!.dropFirst("generation ".count))!
                            #expect(posts.count == generation(number).count)
                            #expect(answer.header("x-total-count") == String(posts.count))
                            tags[titles.first!, default: []].insert(answer.header("etag")!)
                        }
                        return tags
                    }
                }
                return try await group.reduce(into: [String: Set<String>]()) { all, tags in
                    all.merge(tags) { $0.union($1) }
                }
            }
            // A tag names one generation: no two generations share one.
            let tags = seen.values.flatMap { $0 }
            #expect(Set(tags).count == tags.count)
        }
    }

    @Test func limitsAreAnswersNotHangs() async throws {
        let store = InMemoryPostStore(posts: Self.posts)
        var configuration = PostServerConfiguration(allowsWrites: true)
        configuration.maximumBodyBytes = 100
        configuration.maximumHeaderBytes = 2048
        configuration.maximumLimit = 50
        try await RunningServer.with(store, configuration: configuration) { client in
            let body = Data(#"{"userId": 1, "title": "\#(String(repeating: "x", count: 200))", "body": ""}"#.utf8)
            let tooLarge = try await client.send("POST", "/posts", body: body)
            #expect(tooLarge.status == 413 && tooLarge.text.contains("limit of 100 bytes"))
            #expect(try await client.send("GET", "/posts?_limit=51").status == 400)
        }
        // A short idle timeout on a server of its own: on a loaded machine (the thread sanitizer's), 300 ms may pass
        // while a request above is answered, and the timeout closed its connection first. The exchanges below read
        // until the server closes the connection.
        configuration.idleTimeout = .milliseconds(300)
        try await RunningServer.with(store, configuration: configuration) { client in
            let hugeHeader = try await client.exchange(
                Data("GET /posts/1 HTTP/1.1\r\nHost: x\r\nX-Big: \(String(repeating: "y", count: 4096))\r\n\r\n".utf8)
            )
            let answer = try? RawHTTPClient.parse(hugeHeader)
            #expect(answer == nil || answer!.status == 431 || answer!.status == 400, "\(String(describing: answer))")
            // A client that connects and sends nothing is closed after the idle timeout (a read that times out
            // first throws; how soon the server closes is not timed: the machine may be busy).
            let silent = try await client.exchange(Data())
            #expect(silent.isEmpty)
            // So is one whose request head stops half-way.
            let halfHead = try await client.exchange(Data("GET /posts HTTP/1.1\r\nHo".utf8))
            #expect(halfHead.isEmpty)
            #expect(try await store.count() == 120)
        }
    }

    /// A store that never answers: the request timeout is the only way out, so the answer proves it worked.
    @Test func theRequestTimeoutIsA503() async throws {
        var configuration = PostServerConfiguration()
        configuration.requestTimeout = .milliseconds(200)
        try await RunningServer.with(SlowStore(delay: .seconds(3600)), configuration: configuration) { client in
            let answer = try await client.send("GET", "/posts")
            #expect(answer.status == 503 && answer.text.contains("did not answer within"))
        }
    }

    /// A body that stops coming is a 408 once the request timeout has passed, and the connection is closed.
    @Test func aSlowBodyIsA408() async throws {
        var configuration = PostServerConfiguration(allowsWrites: true)
        configuration.requestTimeout = .milliseconds(300)
        let store = InMemoryPostStore()
        try await RunningServer.with(store, configuration: configuration) { client in
            let head = "POST /posts HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"userId\": 1,"
            let answer = try RawHTTPClient.parse(try await client.exchange(Data(head.utf8)))
            #expect(answer.status == 408 && answer.header("connection") == "close", "\(answer)")
            #expect(try await store.count() == 0)
        }
    }

    @Test func aPortInUseIsAClearError() async throws {
        try await RunningServer.with(InMemoryPostStore()) { client in
            let second = PostServer(store: InMemoryPostStore(), configuration: .init(port: client.port, accessLog: nil))
            await #expect(throws: PostStoreError.self) { try await second.run(stoppingOnSignals: false) { _, _ in } }
        }
    }

    @Test(arguments: ["999.1.1.1", "", "not-a-host.invalid"])
    func aHostWithNoAddressIsAClearError(host: String) async throws {
        let server = PostServer(store: InMemoryPostStore(), configuration: .init(host: host, port: 0, accessLog: nil))
        let error = await #expect(throws: PostStoreError.self) {
            try await server.run(stoppingOnSignals: false) { _, _ in }
        }
        #expect(error?.code == .invalidArgument)
        #expect(error?.message.hasPrefix("Cannot listen on ") == true, "\(String(describing: error))")
    }

    private func gunzip(_ data: Data) throws -> Data {
        let folder = try TemporaryDirectory()
        try data.write(to: URL(fileURLWithPath: folder.file("body.gz")))
        let outcome = try ChildProcess.run(
            "/usr/bin/env",
            ["gzip", "-dc", folder.file("body.gz")],
            environment: ["PATH": "/usr/bin:/bin"]
        )
        #expect(outcome.termination == .exited(0))
        return outcome.standardOutput
    }
}

/// A store whose reads take a while: a store on a server that stopped answering.
private struct SlowStore: PostStoreProtocol {
    let delay: Duration
    func apply(_ changes: PostChangeSet) async throws -> WriteSummary { WriteSummary() }
    func preview(_ changes: PostChangeSet) async throws -> WriteSummary { WriteSummary() }
    func post(id: Int) async throws -> Post? { nil }
    func query(_ query: PostQuery) async throws -> [Post] {
        try await Task.sleep(for: delay)
        return []
    }
    func count() async throws -> Int { 0 }
    func removeAll() async throws {}
    func syncState(for source: String) async throws -> SyncState? { nil }
    func syncStates() async throws -> [SyncState] { [] }
}
