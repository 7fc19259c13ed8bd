import Foundation
import PostStore
import PostStoreTesting
import Testing

/// `poststore sync` from files and standard input into every kind of store, its reports, `--dry-run` and `--prune`.
@Suite struct SyncCommandTests {
    /// Where a sync reads posts from.
    enum Input: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case jsonFile, ndjsonFile, standardInputJSON, standardInputNDJSON

        var testDescription: String { rawValue }

        /// How the report names the source.
        var sourceName: String {
            switch self {
            case .jsonFile: "input.json"
            case .ndjsonFile: "input.ndjson"
            case .standardInputJSON, .standardInputNDJSON: "standard input"
            }
        }

        /// Writes `posts` where the sync reads them; returns the `--from` value and the bytes for standard input.
        func prepare(_ posts: [Post], in sandbox: Sandbox) throws -> (from: String, input: Data?) {
            switch self {
            case .jsonFile:
                try sandbox.write(SamplePosts.json(posts), to: "input.json")
                return ("input.json", nil)
            case .ndjsonFile:
                try sandbox.write(SamplePosts.jsonLines(posts), to: "input.ndjson")
                return ("input.ndjson", nil)
            case .standardInputJSON: return ("-", SamplePosts.json(posts))
            case .standardInputNDJSON: return ("-", SamplePosts.jsonLines(posts))
            }
        }
    }

    /// A `--store` value, the file it names, and how reports name the store.
    struct Store: CustomTestStringConvertible, Sendable {
        let spec: String
        let file: String
        let name: String

        var testDescription: String { spec }

        static let sqlite = Store(spec: "sqlite:posts.sqlite", file: "posts.sqlite", name: "sqlite:posts.sqlite")
        static let json = Store(spec: "json:posts.json", file: "posts.json", name: "json:posts.json")
        static let bareDB = Store(spec: "posts.db", file: "posts.db", name: "sqlite:posts.db")
        static let all = [sqlite, json, bareDB]
        static let engines = [sqlite, json]
    }

    static let posts = SamplePosts.make(count: 25)

    // MARK: - Reading and writing

    @Test(arguments: Input.allCases, Store.all)
    func syncsEveryInputIntoEveryStore(input: Input, store: Store) async throws {
        let sandbox = try Sandbox()
        let (from, data) = try input.prepare(Self.posts, in: sandbox)

        let result = try await sandbox.run(["sync", "--from", from, "--store", store.spec], input: data)

        #expect(result.exitCode == 0, "\(result)")
        #expect(
            result.output.hasPrefix(
                "Synced \(input.sourceName) into \(store.name): 25 fetched, 25 inserted, 0 updated, 0 unchanged, "
                    + "0 deleted (1 page, "
            ),
            "\(result)"
        )
        #expect(result.output.hasSuffix(" s).\n"))
        #expect(result.outputLines.count == 1)
        #expect(result.standardError.isEmpty, "\(result)")
        #expect(sandbox.exists(store.file))
        #expect(try await sandbox.posts(in: store.spec) == Self.posts)
    }

    @Test(arguments: Store.engines)
    func theJSONReportHasEveryKey(store: Store) async throws {
        let sandbox = try Sandbox()
        try sandbox.write(Self.posts, to: "input.json")

        let result = try await sandbox.run(["sync", "--from", "input.json", "--store", store.spec, "--format", "json"])

        #expect(result.exitCode == 0, "\(result)")
        #expect(result.outputLines.count == 1)
        let report = try #require(try JSONSerialization.jsonObject(with: result.standardOutput) as? [String: Any])
        #expect(
            Set(report.keys) == [
                "source", "store", "fetched", "inserted", "updated", "unchanged", "deleted", "notModified", "pages",
                "dryRun", "durationSeconds", "byChanges", "deletionsKept", "refetchReason", "changeToken",
            ]
        )
        #expect(report["source"] as? String == "input.json")
        #expect(report["store"] as? String == store.name)
        #expect(report["fetched"] as? Int == 25)
        #expect(report["inserted"] as? Int == 25)
        #expect(report["updated"] as? Int == 0)
        #expect(report["unchanged"] as? Int == 0)
        #expect(report["deleted"] as? Int == 0)
        #expect(report["notModified"] as? Bool == false)
        #expect(report["pages"] as? Int == 1)
        #expect(report["byChanges"] as? Bool == false && report["deletionsKept"] as? Int == 0)
        #expect(report["refetchReason"] is NSNull && report["changeToken"] is NSNull, "a file has no changes feed")
        let seconds = try #require(report["durationSeconds"] as? Double)
        #expect(seconds >= 0 && seconds < 60)
    }

    @Test(arguments: Store.engines)
    func aSecondSyncCountsWhatChanged(store: Store) async throws {
        let sandbox = try Sandbox()
        try await sandbox.seed(Self.posts, into: store.spec)
        var changed = Self.posts
        changed[2].title = "a new title"
        changed.append(Post(userId: 3, id: 26, title: "new", body: "post"))
        try sandbox.write(changed, to: "changed.json")

        let first = try await sandbox.run(["sync", "--from", "changed.json", "--store", store.spec])
        let second = try await sandbox.run(["sync", "--from", "changed.json", "--store", store.spec])

        #expect(first.exitCode == 0, "\(first)")
        #expect(first.output.contains(": 26 fetched, 1 inserted, 1 updated, 24 unchanged, 0 deleted"), "\(first)")
        #expect(second.exitCode == 0, "\(second)")
        #expect(second.output.contains(": 26 fetched, 0 inserted, 0 updated, 26 unchanged, 0 deleted"), "\(second)")
        #expect(try await sandbox.posts(in: store.spec) == changed)
    }

    /// Most of a megabyte through standard input, then through standard output: far more than a pipe buffers.
    @Test func aLargeStoreStreamsThroughThePipes() async throws {
        let sandbox = try Sandbox()
        let posts = SamplePosts.make(count: 5000)

        let sync = try await sandbox.run(
            ["sync", "--from", "-", "--store", "posts.sqlite", "--format", "json"],
            input: SamplePosts.jsonLines(posts)
        )
        let query = try await sandbox.run(["query", "--store", "posts.sqlite", "--format", "ndjson"])

        #expect(sync.exitCode == 0, "\(sync)")
        #expect(sync.output.contains(#""inserted":5000"#), "\(sync)")
        #expect(query.exitCode == 0)
        #expect(query.standardOutput.count > 512 * 1024)
        #expect(query.outputLines.count == 5000)
    }

    // MARK: - Dry run

    @Test(arguments: Store.engines)
    func aDryRunReportsAndWritesNothing(store: Store) async throws {
        let sandbox = try Sandbox()
        try await sandbox.seed(Self.posts, into: store.spec)
        var changed = Array(Self.posts.dropLast(5))
        changed[0].body = "changed"
        changed.append(Post(userId: 9, id: 99, title: "new", body: "post"))
        try sandbox.write(changed, to: "changed.json")
        let before = try sandbox.snapshot()

        let result = try await sandbox.run([
            "sync", "--from", "changed.json", "--store", store.spec, "--dry-run", "--prune",
        ])

        #expect(result.exitCode == 0, "\(result)")
        #expect(
            result.output.hasPrefix(
                "Dry run: would sync changed.json into \(store.name): 21 fetched, 1 inserted, 1 updated, "
                    + "19 unchanged, 5 deleted"
            ),
            "\(result)"
        )
        #expect(try sandbox.snapshot() == before)
        #expect(try await sandbox.posts(in: store.spec) == Self.posts)
    }

    /// A dry run into a store that does not exist yet reports what it would insert, and creates no file.
    @Test(arguments: Store.engines)
    func aDryRunCreatesNoStore(store: Store) async throws {
        let sandbox = try Sandbox()
        try sandbox.write(Self.posts, to: "input.json")

        let result = try await sandbox.run(["sync", "--from", "input.json", "--store", store.spec, "--dry-run"])

        #expect(result.exitCode == 0, "\(result)")
        #expect(result.output.contains(": 25 fetched, 25 inserted,"), "\(result)")
        #expect(!sandbox.exists(store.file), "a dry run created \(store.file)")
    }

    // MARK: - Prune

    @Test(arguments: Store.engines)
    func pruningAnEmptySourceIsRefusedAndChangesNothing(store: Store) async throws {
        let sandbox = try Sandbox()
        try await sandbox.seed(Self.posts, into: store.spec)
        try sandbox.write(Data("[]".utf8), to: "empty.json")
        let before = try sandbox.snapshot()

        let result = try await sandbox.run(["sync", "--from", "empty.json", "--store", store.spec, "--prune"])

        #expect(result.exitCode == 1, "\(result)")
        #expect(result.standardOutput.isEmpty)
        #expect(result.errorLines.count == 1, "\(result)")
        #expect(result.errorOutput.hasPrefix("poststore: Prune refused"), "\(result)")
        #expect(
            result.errorOutput.hasSuffix("Check the source, or lift the deletion limit (--force).\n"),
            "the message names the flag that lifts the limit: \(result)"
        )
        #expect(try sandbox.snapshot() == before)
    }

    @Test(arguments: Store.engines)
    func pruningWithinTheDeletionLimitDeletesWhatTheSourceLost(store: Store) async throws {
        let sandbox = try Sandbox()
        try await sandbox.seed(Self.posts, into: store.spec)
        try sandbox.write(Array(Self.posts.prefix(20)), to: "fewer.json")

        let result = try await sandbox.run(["sync", "--from", "fewer.json", "--store", store.spec, "--prune"])

        #expect(result.exitCode == 0, "\(result)")
        #expect(result.output.contains(": 20 fetched, 0 inserted, 0 updated, 20 unchanged, 5 deleted"), "\(result)")
        #expect(try await sandbox.posts(in: store.spec) == Array(Self.posts.prefix(20)))
    }

    @Test(arguments: Store.engines)
    func forcingThePruneOfAnEmptySourceDeletesEverything(store: Store) async throws {
        let sandbox = try Sandbox()
        try await sandbox.seed(Self.posts, into: store.spec)
        try sandbox.write(Data("[]".utf8), to: "empty.json")

        let result = try await sandbox.run([
            "sync", "--from", "empty.json", "--store", store.spec, "--prune", "--force",
        ])

        #expect(result.exitCode == 0, "\(result)")
        #expect(result.output.contains(": 0 fetched, 0 inserted, 0 updated, 0 unchanged, 25 deleted"), "\(result)")
        #expect(try await sandbox.run(["query", "--store", store.spec, "--count"]).output == "0\n")
    }

    @Test func forceWithoutPruneIsAUsageError() async throws {
        let sandbox = try Sandbox()
        try sandbox.write(Self.posts, to: "input.json")

        let result = try await sandbox.run(["sync", "--from", "input.json", "--store", "posts.sqlite", "--force"])

        #expect(result.exitCode == 64, "\(result)")
        #expect(result.errorLines == ["poststore: --force only makes sense with --prune (see 'poststore sync --help')"])
        #expect(!sandbox.exists("posts.sqlite"))
    }
}
