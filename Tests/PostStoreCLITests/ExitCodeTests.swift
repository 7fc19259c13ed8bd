import Foundation
import PostStore
import PostStoreTesting
import Testing

/// Every documented exit code, each failure's message on standard error, and that no failure touches a file.
///
/// Each case runs in a sandbox holding `store.sqlite` and `store.json` (synced from a file) and one file for every kind
/// of bad input; after the failure every file in the sandbox must hold the same bytes, and no file may have appeared.
@Suite struct ExitCodeTests {
    /// A run that must fail.
    struct Failure: CustomTestStringConvertible, Sendable {
        let arguments: [String]
        let input: Data?
        let status: Int32
        /// Text the message on standard error contains.
        let message: String

        var testDescription: String { "\(status): " + arguments.joined(separator: " ") }

        init(_ status: Int32, _ arguments: [String], input: Data? = nil, message: String) {
            self.status = status
            self.arguments = arguments
            self.input = input
            self.message = message
        }
    }

    /// A post whose title holds the byte 0xFF, which starts no UTF-8 character.
    static let invalidUTF8 =
        Data(#"[{"userId": 1, "id": 1, "title": "t"#.utf8) + [0xFF] + Data(#"", "body": "b"}]"#.utf8)

    /// Usage errors (64): one line, `poststore: …`, pointing at `--help`.
    static let usageErrors: [Failure] = [
        Failure(64, ["sync", "--bogus"], message: "Unknown option '--bogus'"),
        Failure(64, ["frobnicate"], message: "frobnicate"),
        Failure(64, ["query", "--store", "foo.txt"], message: "Cannot tell the engine of store \"foo.txt\""),
        Failure(64, ["query", "--store", "ftp:x"], message: "Unknown store scheme \"ftp:\""),
        Failure(64, ["sync", "--from", "posts.json", "--store", "ftp:x"], message: "Unknown store scheme"),
        Failure(64, ["query", "--store", "sqlite:"], message: "has no path"),
        Failure(64, ["query", "--store", "store.sqlite", "--limit", "-1"], message: "--limit"),
        Failure(64, ["query", "--store", "store.sqlite", "--limit=-1"], message: "--limit must be 0 or more"),
        Failure(64, ["query", "--store", "store.sqlite", "--offset=-3"], message: "--offset must be 0 or more"),
        Failure(64, ["query", "--store", "store.sqlite", "--limit", "ten"], message: "ten"),
        Failure(64, ["query", "--store", "store.sqlite", "--format", "xml"], message: "xml"),
        Failure(64, ["query", "--store", "store.sqlite", "--sort", "name"], message: "name"),
        Failure(64, ["info", "--store", "store.sqlite", "--format", "yaml"], message: "yaml"),
        Failure(
            64,
            ["sync", "--from", "http://127.0.0.1:1/posts", "--store", "store.sqlite", "--page-size", "0"],
            message: "--page-size must be at least 1"
        ),
        Failure(
            64,
            ["sync", "--from", "http://127.0.0.1:1/posts?_limit=5", "--store", "store.sqlite", "--page-size", "2"],
            message: "(_limit=5), which paging by 2 would replace with _page and _limit"
        ),
        Failure(
            64,
            ["sync", "--from", "posts.json", "--store", "store.sqlite", "--page-size", "10"],
            message: "--page-size applies to an http(s) source only"
        ),
        Failure(64, ["sync", "--from", "ftp://example.com/posts", "--store", "store.sqlite"], message: "ftp://"),
        Failure(
            64,
            ["sync", "--from", "posts.json", "--store", "store.sqlite", "--timeout", "0"],
            message: "--timeout"
        ),
        Failure(64, ["sync", "--from", "posts.json", "--store", "store.sqlite", "--retries=-1"], message: "--retries"),
        Failure(64, ["sync", "--from", "posts.json", "--store", "store.sqlite", "--force"], message: "--prune"),
        Failure(64, ["copy", "--from-store", "store.sqlite"], message: "--to-store"),
        Failure(64, ["copy", "--from-store", "store.sqlite", "--to-store", "sqlite:store.sqlite"], message: "same"),
    ]

    /// Failures of the run itself (65, 66, 69, 74, 1): one line, `poststore: …`.
    static let runFailures: [Failure] = [
        // 65: the source sent bad data.
        Failure(65, ["sync", "--from", "not-json.json", "--store", "store.sqlite"], message: "not valid JSON"),
        Failure(65, ["sync", "--from", "wrong-shape.json", "--store", "store.sqlite"], message: "wrong-shape.json"),
        Failure(65, ["sync", "--from", "wrong-types.json", "--store", "store.sqlite"], message: "wrong-types.json"),
        Failure(65, ["sync", "--from", "duplicates.json", "--store", "store.sqlite"], message: "repeats id 1"),
        Failure(65, ["sync", "--from", "invalid-utf8.json", "--store", "store.sqlite"], message: "not valid UTF-8"),
        Failure(
            65,
            ["sync", "--from", "-", "--store", "store.sqlite"],
            input: invalidUTF8,
            message: "not valid UTF-8"
        ),
        Failure(
            65,
            ["sync", "--from", "-", "--store", "json:store.json"],
            input: SamplePosts.jsonLines(SamplePosts.make(count: 2) + SamplePosts.make(count: 1)),
            message: "repeats id 1"
        ),
        // 66: no such store or input.
        Failure(66, ["query", "--store", "missing.sqlite"], message: "Run `poststore sync"),
        Failure(66, ["query", "--store", "json:missing.json"], message: "Run `poststore sync"),
        Failure(66, ["info", "--store", "missing.db"], message: "Run `poststore sync"),
        Failure(66, ["sync", "--from", "missing.json", "--store", "store.sqlite"], message: "missing.json"),
        Failure(66, ["copy", "--from-store", "missing.sqlite", "--to-store", "json:copy.json"], message: "missing"),
        // 69: the source is unavailable.
        Failure(
            69,
            ["sync", "--from", "http://127.0.0.1:1/posts", "--retries", "0", "--store", "store.sqlite"],
            message: "http://127.0.0.1:1/posts"
        ),
        // 74: the store cannot be read or written.
        Failure(74, ["query", "--store", "not-a-database.sqlite"], message: "not-a-database.sqlite"),
        Failure(74, ["info", "--store", "not-a-database.sqlite"], message: "not-a-database.sqlite"),
        Failure(74, ["migrate", "--store", "not-a-database.sqlite"], message: "not-a-database.sqlite"),
        Failure(74, ["sync", "--from", "posts.json", "--store", "not-a-database.sqlite"], message: "not a database"),
        Failure(74, ["query", "--store", "future.json"], message: "format version 99"),
        Failure(74, ["sync", "--from", "posts.json", "--store", "future.json"], message: "format version 99"),
        Failure(74, ["query", "--store", "not-a-store.json"], message: "not a PostStore file"),
        // 1: anything else, here a prune over the deletion limit.
        Failure(1, ["sync", "--from", "empty.json", "--store", "store.sqlite", "--prune"], message: "Prune refused"),
    ]

    @Test(arguments: usageErrors)
    func usageErrorsExit64(_ failure: Failure) async throws {
        let (result, changed) = try await run(failure)

        #expect(result.exitCode == 64, "\(result)")
        #expect(result.standardOutput.isEmpty, "\(result)")
        #expect(result.errorLines.count == 1, "\(result)")
        #expect(result.errorLines.first?.hasPrefix("poststore: ") == true, "\(result)")
        #expect(result.errorLines.first?.contains(failure.message) == true, "\(result)")
        // The pointer is to the help of the command that was run, where its options are.
        let command =
            ["sync", "query", "info", "copy"].contains(failure.arguments[0]) ? failure.arguments[0] + " " : ""
        #expect(result.errorLines.first?.hasSuffix("(see 'poststore \(command)--help')") == true, "\(result)")
        #expect(!result.errorOutput.contains("Fatal error"), "\(result)")
        #expect(changed.isEmpty, "changed: \(changed)")
    }

    /// With `--verbose`, a usage error keeps its line and adds the command's whole help after it.
    @Test func aVerboseUsageErrorIsTheLineThenTheWholeUsage() async throws {
        let result = try await Sandbox().run(["query", "--store", "demo.sqlite", "--bogus", "--verbose"])

        #expect(result.exitCode == 64, "\(result)")
        #expect(result.errorLines.first?.hasPrefix("poststore: Unknown option '--bogus'") == true, "\(result)")
        #expect(result.errorLines.first?.hasSuffix("(see 'poststore query --help')") == true, "\(result)")
        #expect(result.errorLines.contains { $0.hasPrefix("USAGE: poststore query") }, "\(result)")
        #expect(result.errorOutput.contains("--format"), "the whole usage names every option: \(result)")
    }

    @Test(arguments: runFailures)
    func failuresExitWithTheirCodeAndOneLine(_ failure: Failure) async throws {
        let (result, changed) = try await run(failure)

        #expect(result.exitCode == failure.status, "\(result)")
        #expect(result.standardOutput.isEmpty, "\(result)")
        #expect(result.errorLines.count == 1, "\(result)")
        #expect(result.errorOutput.hasPrefix("poststore: "), "\(result)")
        #expect(result.errorOutput.contains(failure.message), "\(result)")
        #expect(changed.isEmpty, "changed: \(changed)")
    }

    /// Runs the failure in a new sandbox; returns its result and the files it created, changed or deleted.
    private func run(_ failure: Failure) async throws -> (CommandResult, [String]) {
        let sandbox = try Sandbox()
        try await sandbox.seed(SamplePosts.make(count: 10), into: "store.sqlite")
        try await sandbox.seed(SamplePosts.make(count: 10), into: "json:store.json")
        try sandbox.write(SamplePosts.make(count: 5), to: "posts.json")
        try sandbox.write(Data("[]".utf8), to: "empty.json")
        try sandbox.write(Data("{not json".utf8), to: "not-json.json")
        try sandbox.write(Data(#"{"posts": []}"#.utf8), to: "wrong-shape.json")
        try sandbox.write(Data(#"[{"userId": "1", "id": 1, "title": "t", "body": "b"}]"#.utf8), to: "wrong-types.json")
        try sandbox.write(
            SamplePosts.json(SamplePosts.make(count: 2) + SamplePosts.make(count: 1)),
            to: "duplicates.json"
        )
        try sandbox.write(Self.invalidUTF8, to: "invalid-utf8.json")
        try sandbox.write(Data("hello, I am text, not a database\n".utf8), to: "not-a-database.sqlite")
        try sandbox.write(
            Data(#"{"format": "poststore-json", "formatVersion": 99, "syncStates": [], "posts": []}"#.utf8),
            to: "future.json"
        )
        try sandbox.write(Data(#"{"some": "thing"}"#.utf8), to: "not-a-store.json")
        let before = try sandbox.snapshot()

        let result = try await sandbox.run(failure.arguments, input: failure.input)

        let after = try sandbox.snapshot()
        let changed = Set(before.keys).union(after.keys).filter { before[$0] != after[$0] }.sorted()
        return (result, changed)
    }
}
