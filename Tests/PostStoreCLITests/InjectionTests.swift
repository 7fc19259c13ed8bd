import Foundation
import PostStore
import PostStoreTestSupport
import PostStoreTesting
import Testing

/// Hostile text in search terms, store paths and source URLs is data: queries answer exactly what
/// ``TextSearch`` defines, files land exactly where named, and nothing else is touched.
@Suite struct InjectionTests {
    /// Search texts written to break SQL, LIKE patterns, FTS5 query syntax or a shell.
    static let hostileSearches = [
        "'", "''", "\"", "%", "_", "%_%", "50%", "snake_case", ";", "'; DROP TABLE posts; --", "\" OR 1=1 --",
        "DROP", "OR", "AND NOT", "NEAR(a b)", "title:x", "*", "a*", "^start", "\\", "$(touch pwned)", "`id`", "|",
        "&&", "{x}", "posts_search", "SELECT * FROM posts",
    ]

    /// Posts whose text holds every hostile search, plus plain ones that must not match.
    static let posts: [Post] = {
        var posts = SamplePosts.make(count: 20)
        for (index, text) in hostileSearches.enumerated() {
            posts.append(Post(userId: 9, id: 1000 + index, title: "note \(text) here", body: "plain body"))
        }
        posts.append(Post(userId: 9, id: 2000, title: "50 percent off", body: "snake case, not snake_case? no"))
        return posts
    }()

    @Test(arguments: ["hostile.sqlite", "json:hostile.json"])
    func hostileSearchTextIsMatchedLiterally(store: String) async throws {
        let sandbox = try Sandbox()
        try await sandbox.seed(Self.posts, into: store)
        let reference = InMemoryPostStore(posts: Self.posts)

        for search in Self.hostileSearches {
            let result = try await sandbox.run(["query", "--store", store, "--search", search, "--format", "json"])

            #expect(result.exitCode == 0, "\(result)")
            let found = try JSONDecoder().decode([Post].self, from: result.standardOutput).map(\.id)
            let expected = try await reference.query(PostQuery(search: search)).map(\.id)
            #expect(found == expected, "search \(search)")
            #expect(!found.isEmpty, "search \(search) should find its own post")
        }
        #expect(try await sandbox.posts(in: store) == Self.posts, "a search changed the store")
        #expect(!sandbox.exists("pwned"))
    }

    @Test(arguments: ["sqlite:", "json:"])
    func hostileStorePathsNameExactlyThatFile(scheme: String) async throws {
        let sandbox = try Sandbox()
        let name = #"it's "a" store; DROP TABLE posts; --$(touch pwned)&|*?%_ .x"#
        try sandbox.write(SamplePosts.make(count: 3), to: "posts.json")

        let sync = try await sandbox.run(["sync", "--from", "posts.json", "--store", scheme + name])
        let query = try await sandbox.run(["query", "--store", scheme + name, "--count"])

        #expect(sync.exitCode == 0, "\(sync)")
        #expect(query.output == "3\n", "\(query)")
        #expect(sandbox.exists(name))
        let entries = try sandbox.directory.entries().filter { !$0.hasPrefix(name) }.sorted()
        #expect(entries == ["home", "posts.json"], "unexpected files: \(entries)")
    }

    @Test func hostileSourceURLsAreSentAsWrittenAndTheirAnswerIsData() async throws {
        let posts = SamplePosts.make(count: 4)
        let server = try TestHTTPServer { _ in .response(status: 200, body: SamplePosts.json(posts)) }
        let sandbox = try Sandbox()
        let query = "q=%27%3B%20DROP%20TABLE%20posts%3B%20--&like=%25_&shell=%24(touch%20pwned)"

        let result = try await sandbox.run([
            "sync", "--from", server.url("/posts?\(query)").absoluteString, "--store", "u.sqlite",
        ])

        #expect(result.exitCode == 0, "\(result)")
        let request = try #require(server.requests.first)
        #expect(request.target == "/posts?\(query)")
        #expect(request.queryItems["q"] == "'; DROP TABLE posts; --")
        #expect(request.queryItems["shell"] == "$(touch pwned)")
        #expect(try await sandbox.posts(in: "u.sqlite") == posts)
        #expect(!sandbox.exists("pwned"))
    }
}
