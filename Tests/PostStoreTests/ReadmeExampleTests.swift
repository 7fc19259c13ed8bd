import Foundation
import PostStore
import PostStoreHTTP
import PostStoreJSONFile
import PostStoreLive
import PostStoreSQLite
import PostStoreTesting
import Testing

/// README's library example, as written there, so the README cannot drift from the API.
@Suite("README")
struct ReadmeExampleTests {
    @Test("the library example does what README says")
    func libraryExample() async throws {
        let store: any PostStoreProtocol = InMemoryPostStore()

        let summary = try await store.upsert([
            Post(userId: 1, id: 1, title: "Hello", body: "First post"),
            Post(userId: 1, id: 2, title: "Qui est esse", body: "est rerum tempore vitae"),
            Post(userId: 2, id: 3, title: "Ea molestias", body: "et iusto sed quo iure"),
        ])
        #expect(String(describing: summary) == "WriteSummary(inserted: 3, updated: 0, unchanged: 0, deleted: 0)")

        let hits = try await store.query(PostQuery(userIds: [1], search: "EST", sort: .title))
        #expect(hits.map(\.id) == [2])

        try await store.delete(ids: [3])
        #expect(try await store.count() == 2)
    }

    @Test("README's @Injected example with a task-scoped override")
    func countsTheStoredPosts() async throws {
        let count = try await withDependencies {
            $0.register(InMemoryPostStore(posts: SamplePosts.make(count: 3)), for: (any PostStoreProtocol).self)
        } operation: {
            try await PostCounter().count()
        }
        #expect(count == 3)
    }

    @Test("README's own data service syncs")
    func customDataServiceExample() async throws {
        let service = SyncService(
            dataService: FixedPostDataService(posts: [Post(userId: 1, id: 1, title: "Hello", body: "World")]),
            store: InMemoryPostStore(),
            clock: TestClock(),
            logger: .silent
        )
        let report = try await service.sync()
        #expect(report.source == "fixed" && report.inserted == 1)
    }

    /// README's sync report JSON, which must decode as a `SyncReport` and list every key it encodes.
    static let reportLines = [
        #"{"source":"https://jsonplaceholder.typicode.com/posts","fetched":100,"inserted":100,"updated":0,"unchanged":0,"#,
        #" "deleted":0,"notModified":false,"pages":1,"dryRun":false,"durationSeconds":0.412}"#,
    ]

    @Test("the sync report JSON in README is what SyncReport reads and writes")
    func reportExample() throws {
        let report = try JSONDecoder().decode(SyncReport.self, from: Data(Self.reportLines.joined().utf8))
        #expect(report.summary == WriteSummary(inserted: 100))
        #expect(report.duration == .milliseconds(412))
        let encoded = try JSONSerialization.jsonObject(with: JSONEncoder().encode(report)) as? [String: Any]
        let shown = try JSONSerialization.jsonObject(with: Data(Self.reportLines.joined().utf8)) as? [String: Any]
        #expect(encoded.map { Set($0.keys) } == shown.map { Set($0.keys) })
    }

    /// The lines of the example above, which README's code block must hold word for word.
    static let exampleLines = [
        "let store: any PostStoreProtocol = InMemoryPostStore()",
        "let summary = try await store.upsert([",
        #"Post(userId: 1, id: 2, title: "Qui est esse", body: "est rerum tempore vitae"),"#,
        "print(summary)  // WriteSummary(inserted: 3, updated: 0, unchanged: 0, deleted: 0)",
        #"let hits = try await store.query(PostQuery(userIds: [1], search: "EST", sort: .title))"#,
        #"print(hits.map(\.id))  // [2]"#,
        "try await store.delete(ids: [3])",
        "print(try await store.count())  // 2",
    ]

    @Test("README still shows the example this suite runs")
    func readmeShowsTheExample() throws {
        let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("README.md")
        let lines = Set(
            try String(contentsOf: readme, encoding: .utf8).split(separator: "\n").map {
                $0.trimmingCharacters(in: .whitespaces)
            }
        )
        let shown =
            Self.exampleLines + Self.reportLines.map { $0.trimmingCharacters(in: .whitespaces) } + [
                "struct FixedPostDataService: PostDataService {",
                "@Injected var store: any PostStoreProtocol",
                "$0.register(InMemoryPostStore(posts: SamplePosts.make(count: 3)), for: (any PostStoreProtocol).self)",
                "try await PostCounter().count()",
                "func fetchPosts(_ request: PostFetchRequest) async throws -> PostFetchResult {",
                ".posts(posts, etag: nil, pages: 1)  // or .notModified when request.etag still matches",
            ]
        for line in shown {
            #expect(lines.contains(line), "README no longer has: \(line)")
        }
    }
}

/// README's example of a data service of your own, as written there.
struct FixedPostDataService: PostDataService {
    let posts: [Post]
    var source: String { "fixed" }
    func fetchPosts(_ request: PostFetchRequest) async throws -> PostFetchResult {
        .posts(posts, etag: nil, pages: 1)  // or .notModified when request.etag still matches
    }
}

/// README's example of a type with an injected store, as written there.
struct PostCounter {
    @Injected var store: any PostStoreProtocol

    func count() async throws -> Int { try await store.count() }
}
