import Foundation
import PostStore
import PostStoreTestSupport
import PostStoreTesting
import Testing

/// The README's app example, run as written so that the results its comments show are checked (every block of
/// README.md is also compiled, and its tests run, by DocumentationSnippetTests), and the README's promises that a
/// reader acts on: the quick-start commands, and links that lead somewhere.
@Suite("README")
struct ReadmeExampleTests {
    @Test("the app example does what README says")
    func appExample() async throws {
        let store = InMemoryPostStore()

        let summary = try await store.upsert([
            Post(userId: 1, id: 1, title: "Hello", body: "First post"),
            Post(userId: 1, id: 2, title: "Qui est esse", body: "est rerum tempore vitae"),
            Post(userId: 2, id: 3, title: "Ea molestias", body: "et iusto sed quo iure"),
        ])
        #expect(String(describing: summary) == "WriteSummary(inserted: 3, updated: 0, unchanged: 0, deleted: 0)")

        let hits = try await store.query(PostQuery(userIds: [1], search: "EST", sort: .title))
        #expect(hits.map(\.id) == [2])
    }

    /// The lines of the app example above, which README's code block must hold word for word.
    static let appExampleLines = [
        "import PostStore",
        "let store = InMemoryPostStore()",
        "let summary = try await store.upsert([",
        #"Post(userId: 1, id: 1, title: "Hello", body: "First post"),"#,
        #"Post(userId: 1, id: 2, title: "Qui est esse", body: "est rerum tempore vitae"),"#,
        #"Post(userId: 2, id: 3, title: "Ea molestias", body: "et iusto sed quo iure"),"#,
        "print(summary)  // WriteSummary(inserted: 3, updated: 0, unchanged: 0, deleted: 0)",
        #"let hits = try await store.query(PostQuery(userIds: [1], search: "EST", sort: .title))"#,
        #"print(hits.map(\.id))  // [2]"#,
    ]

    /// The quick start, which CI runs as written (`.ci/run`).
    static let quickStartLines = [
        "swift run poststore sync --from Samples/posts.json --store demo.sqlite && "
            + "swift run poststore query --store demo.sqlite --user 1",
        "swift test",
    ]

    @Test("README still shows the app example and the quick start")
    func readmeShowsTheExamples() throws {
        let lines = try Documentation.lines(of: "README.md")
        for line in Self.appExampleLines + Self.quickStartLines {
            #expect(lines.contains(line), "README no longer has: \(line)")
        }
    }

    @Test(
        "every relative link leads to a file of the repository",
        arguments: ["README.md", "Benchmarks/README.md", "scripts/README.md", "scripts/reliability/RELIABILITY.md"]
    )
    func relativeLinksLeadSomewhere(document: String) throws {
        let targets = try Documentation.relativeLinkTargets(of: document)
        #expect(!targets.isEmpty)
        for target in targets {
            #expect(Documentation.exists(target), "\(document) links to \(target), which does not exist")
        }
    }
}

/// The guide's examples that are not Swift (its code is DocumentationSnippetTests'), checked against the API.
@Suite("Guide examples")
struct GuideExampleTests {
    /// The guide's sync report JSON, which must decode as a `SyncReport` and list every key it encodes.
    static let reportLines = [
        #"{"source":"https://jsonplaceholder.typicode.com/posts","fetched":100,"inserted":100,"updated":0,"unchanged":0,"#,
        #" "deleted":0,"notModified":false,"pages":1,"dryRun":false,"durationSeconds":0.412,"byChanges":false,"#,
        #" "deletionsKept":0,"refetchReason":null,"changeToken":null}"#,
    ]

    @Test("the sync report JSON in the guide is what SyncReport reads and writes")
    func reportExample() throws {
        let report = try JSONDecoder().decode(SyncReport.self, from: Data(Self.reportLines.joined().utf8))
        #expect(report.summary == WriteSummary(inserted: 100))
        #expect(report.duration == .milliseconds(412))
        let encoded = try JSONSerialization.jsonObject(with: JSONEncoder().encode(report)) as? [String: Any]
        let shown = try JSONSerialization.jsonObject(with: Data(Self.reportLines.joined().utf8)) as? [String: Any]
        #expect(encoded.map { Set($0.keys) } == shown.map { Set($0.keys) })
    }

    @Test("the guide still shows the report this suite checks")
    func guideShowsTheReport() throws {
        let lines = try Documentation.lines(of: "Sources/PostStore/PostStore.docc/Syncing.md")
        for line in Self.reportLines.map({ $0.trimmingCharacters(in: .whitespaces) }) {
            #expect(lines.contains(line), "Syncing.md no longer has: \(line)")
        }
    }
}

/// Reads the repository's Markdown documents.
private enum Documentation {
    /// The repository's top-level folder.
    static let root = packageRoot

    /// The document's lines with the whitespace around them trimmed.
    static func lines(of document: String) throws -> Set<String> {
        let text = try String(contentsOf: root.appendingPathComponent(document), encoding: .utf8)
        return Set(text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) })
    }

    /// The targets of the document's relative Markdown links, `[text](target)`, as paths from the repository's
    /// root, without any `#fragment`; links to a scheme (`https:`) or to a fragment of the same page are left out.
    static func relativeLinkTargets(of document: String) throws -> [String] {
        let text = try String(contentsOf: root.appendingPathComponent(document), encoding: .utf8)
        let folder = (document as NSString).deletingLastPathComponent
        var targets: [String] = []
        var rest = Substring(text)
        while let opening = rest.range(of: "](") {
            rest = rest[opening.upperBound...]
            guard let closing = rest.firstIndex(of: ")") else { break }
            let target = String(rest[..<closing].prefix { $0 != "#" })
            rest = rest[closing...]
            guard !target.isEmpty, !target.contains(":") else { continue }
            targets.append((folder as NSString).appendingPathComponent(target))
        }
        return targets
    }

    /// Whether a path from the repository's root names a file or folder.
    static func exists(_ path: String) -> Bool {
        FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path)
    }
}
