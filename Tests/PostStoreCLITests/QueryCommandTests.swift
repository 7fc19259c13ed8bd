import Foundation
import PostStore
import PostStoreTesting
import Testing

/// `poststore query`: its filters, sorting, paging and `--count` on each engine, and each output format.
@Suite struct QueryCommandTests {
    static let posts = SamplePosts.make(count: 25)

    /// Posts to print: plain ones, or ``SamplePosts/tricky`` (emoji, quotes, line breaks, NUL, the extreme ids).
    enum Dataset: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case sample, tricky

        var testDescription: String { rawValue }

        var posts: [Post] {
            switch self {
            case .sample: QueryCommandTests.posts
            case .tricky: SamplePosts.tricky
            }
        }
    }

    /// Query arguments and the ids they select from ``posts``, in order.
    struct Selection: CustomTestStringConvertible, Sendable {
        let arguments: [String]
        let ids: [Int]

        var testDescription: String { arguments.isEmpty ? "(none)" : arguments.joined(separator: " ") }

        init(_ arguments: [String], _ ids: [Int]) {
            self.arguments = arguments
            self.ids = ids
        }

        init(_ arguments: [String], where isIncluded: (Post) -> Bool) {
            self.init(arguments, QueryCommandTests.posts.filter(isIncluded).map(\.id))
        }

        /// Every term occurs, lowercased, in the lowercased title or body.
        static func matches(_ post: Post, _ terms: String...) -> Bool {
            terms.allSatisfy { post.title.lowercased().contains($0) || post.body.lowercased().contains($0) }
        }

        static let all: [Selection] = [
            Selection([], Array(1...25)),
            Selection(["--user", "2"], Array(11...20)),
            Selection(["--user", "1", "--user", "3"], Array(1...10) + Array(21...25)),
            Selection(["--id", "3", "--id", "7", "--id", "99"], [3, 7]),
            Selection(["--search", "suscipit"]) { matches($0, "suscipit") },
            Selection(["--search", "SUSCIPIT  dolor"]) { matches($0, "suscipit", "dolor") },
            Selection(["--user", "1", "--search", "lorem"]) { $0.userId == 1 && matches($0, "lorem") },
            Selection(["--sort", "-id"], Array((1...25).reversed())),
            Selection(["--sort=-id"], Array((1...25).reversed())),
            Selection(["--sort", "-id", "--limit", "3"], [25, 24, 23]),
            Selection(
                ["--sort", "title"],
                QueryCommandTests.posts.sorted {
                    $0.title == $1.title ? $0.id < $1.id : $0.title.utf8.lexicographicallyPrecedes($1.title.utf8)
                }.map(\.id)
            ),
            Selection(["--sort", "user"], Array(1...25)),
            Selection(["--limit", "5", "--offset", "10"], Array(11...15)),
            Selection(["--offset", "20"], Array(21...25)),
            Selection(["--offset", "30"], []),
            Selection(["--limit", "0"], []),
            Selection(["--user", "2", "--sort=-id", "--limit", "2", "--offset", "1"], [19, 18]),
        ]
    }

    @Test(arguments: ["sqlite:posts.sqlite", "json:posts.json"], Selection.all)
    func selects(store: String, selection: Selection) async throws {
        let sandbox = try Sandbox()
        try await sandbox.seed(Self.posts, into: store)
        let expected = selection.ids.map { id in Self.posts.first { $0.id == id }! }

        let selected = try await sandbox.posts(in: store, selection.arguments)
        let count = try await sandbox.run(["query", "--store", store, "--count"] + selection.arguments)

        #expect(selected.map(\.id) == selection.ids)
        #expect(selected == expected)
        // --count is the number selected; it takes no window (--limit, --offset).
        let paging: Set<String> = ["--limit", "--offset"]
        if selection.arguments.contains(where: { paging.contains($0) }) {
            #expect(count.exitCode == 64, "\(count)")
        } else {
            #expect(count.exitCode == 0, "\(count)")
            #expect(count.output == "\(selection.ids.count)\n", "\(count)")
        }
    }

    // MARK: - Formats

    /// `--format json` prints JSONPlaceholder's shape, so its output is itself a sync source: syncing it into a new
    /// store of the other engine gives the same posts and the same output.
    @Test(arguments: Dataset.allCases)
    func jsonOutputIsASyncSource(dataset: Dataset) async throws {
        let posts = dataset.posts
        let sandbox = try Sandbox()
        try await sandbox.seed(posts, into: "posts.sqlite")

        let exported = try await sandbox.run(["query", "--store", "posts.sqlite", "--format", "json"])
        try sandbox.write(exported.standardOutput, to: "export.json")
        let sync = try await sandbox.run(["sync", "--from", "export.json", "--store", "json:copy.json"])
        let copied = try await sandbox.run(["query", "--store", "json:copy.json", "--format", "json"])

        #expect(exported.exitCode == 0, "\(exported)")
        #expect(exported.output.hasPrefix("[{\"userId\": "), "keys in JSONPlaceholder's order")
        #expect(exported.outputLines.count == 1)
        let sorted = posts.sorted { $0.id < $1.id }
        #expect(try JSONDecoder().decode([Post].self, from: exported.standardOutput) == sorted)
        #expect(sync.exitCode == 0, "\(sync)")
        #expect(sync.output.contains(": \(posts.count) fetched, \(posts.count) inserted,"), "\(sync)")
        #expect(copied.standardOutput == exported.standardOutput)
    }

    @Test func ndjsonIsOnePostALine() async throws {
        let sandbox = try Sandbox()
        try await sandbox.seed(SamplePosts.tricky, into: "posts.sqlite")

        let result = try await sandbox.run(["query", "--store", "posts.sqlite", "--format", "ndjson"])

        #expect(result.exitCode == 0, "\(result)")
        #expect(result.output.hasSuffix("}\n"))
        let lines = result.outputLines
        #expect(lines.count == SamplePosts.tricky.count)
        let decoded = try lines.map { try JSONDecoder().decode(Post.self, from: Data($0.utf8)) }
        #expect(decoded == SamplePosts.tricky.sorted { $0.id < $1.id })
    }

    @Test func csvFollowsRFC4180() async throws {
        let sandbox = try Sandbox()
        try await sandbox.seed(SamplePosts.tricky, into: "posts.sqlite")

        let result = try await sandbox.run(["query", "--store", "posts.sqlite", "--format", "csv"])

        #expect(result.exitCode == 0, "\(result)")
        let text = result.output
        #expect(text.hasPrefix("id,userId,title,body\r\n"))
        #expect(text.hasSuffix("\r\n"))
        // A comma-free field with quotes is quoted, its quotes doubled; a body with line breaks is quoted whole.
        #expect(text.contains("\r\n5,3,\"quotes \"\"double\"\" 'single'\",100% of_the_time \\ backslash\r\n"))
        #expect(text.contains(",\"smile 😀 and\nnew lines\r\nand tabs\t.\"\r\n"))
        let records = Self.parseCSV(text)
        #expect(records.first == ["id", "userId", "title", "body"])
        let posts = records.dropFirst().map { record in
            Post(userId: Int(record[1]) ?? 0, id: Int(record[0]) ?? 0, title: record[2], body: record[3])
        }
        #expect(records.dropFirst().allSatisfy { $0.count == 4 })
        #expect(posts == SamplePosts.tricky.sorted { $0.id < $1.id })
    }

    /// A CRLF inside a field is one `Character` but two bytes: the field is quoted, so a CSV reader sees one record.
    @Test func csvQuotesAFieldHoldingCRLF() async throws {
        let sandbox = try Sandbox()
        let posts = [
            Post(userId: 1, id: 1, title: "안녕", body: "안녕\r\nipsum"),
            Post(userId: 1, id: 2, title: "lone\rCR", body: "quote\"\u{301} and comma,\u{301}"),
        ]
        try await sandbox.seed(posts, into: "posts.sqlite")

        let result = try await sandbox.run(["query", "--store", "posts.sqlite", "--format", "csv"])

        #expect(result.exitCode == 0, "\(result)")
        let records = PostsAsTextCSVTests.records(result.output)
        #expect(records.count == 3, "\(result)")
        #expect(records.dropFirst().map(PostsAsTextCSVTests.fields) == posts.map(PostsAsTextCSVTests.fields))
    }

    /// `table` fits `$COLUMNS`: every line, header included, is at most that many characters.
    @Test(arguments: Dataset.allCases, [60, 100])
    func tableFitsTheWidth(dataset: Dataset, columns: Int) async throws {
        let posts = dataset.posts
        let sandbox = try Sandbox()
        try await sandbox.seed(posts, into: "posts.sqlite")

        let result = try await sandbox.run(
            ["query", "--store", "posts.sqlite"],
            environment: ["COLUMNS": String(columns)]
        )

        #expect(result.exitCode == 0, "\(result)")
        let lines = result.outputLines
        #expect(lines.count == posts.count + 1)
        #expect(lines.first?.split(separator: " ") == ["id", "userId", "title", "body"])
        let tooLong = lines.filter { $0.count > columns }
        #expect(tooLong.isEmpty, "\(tooLong.map { "\($0.count) characters: \($0)" }.joined(separator: "\n"))")
    }

    @Test func tableCutsLongTextWithAnEllipsis() async throws {
        let sandbox = try Sandbox()
        try await sandbox.seed(Self.posts, into: "posts.sqlite")

        let result = try await sandbox.run(
            ["query", "--store", "posts.sqlite", "--id", "1"],
            environment: ["COLUMNS": "60"]
        )

        #expect(result.exitCode == 0, "\(result)")
        #expect(result.outputLines.count == 2)
        #expect(result.outputLines.last?.hasSuffix("…") == true, "\(result)")
        #expect(result.outputLines.last?.hasPrefix(" 1       1  ") == true, "\(result)")
    }

    // MARK: - Helpers

    /// Parses RFC 4180 CSV: records end with CRLF; a field in double quotes may hold commas, line breaks and doubled
    /// quotes. Works on Unicode scalars, since `"\r\n"` is a single `Character`.
    static func parseCSV(_ text: String) -> [[String]] {
        var records: [[String]] = []
        var record: [String] = []
        var field = String.UnicodeScalarView()
        var scalars = text.unicodeScalars[...]
        var quoted = false
        while let scalar = scalars.popFirst() {
            if quoted {
                if scalar != "\"" {
                    field.append(scalar)
                } else if scalars.first == "\"" {
                    scalars.removeFirst()
                    field.append(scalar)
                } else {
                    quoted = false
                }
            } else if scalar == "\"" {
                quoted = true
            } else if scalar == "," {
                record.append(String(field))
                field = String.UnicodeScalarView()
            } else if scalar == "\r" && scalars.first == "\n" {
                scalars.removeFirst()
                record.append(String(field))
                records.append(record)
                field = String.UnicodeScalarView()
                record = []
            } else {
                field.append(scalar)
            }
        }
        if !field.isEmpty || !record.isEmpty {
            record.append(String(field))
            records.append(record)
        }
        return records
    }
}
