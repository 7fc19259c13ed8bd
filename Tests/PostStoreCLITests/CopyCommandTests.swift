import Foundation
import PostStore
import PostStoreTesting
import Testing

/// `poststore copy` between engines.
@Suite struct CopyCommandTests {
    static let posts = SamplePosts.make(count: 25)

    @Test(arguments: [
        (from: "json:source.json", to: "target.sqlite", names: "json:source.json to sqlite:target.sqlite"),
        (from: "source.sqlite", to: "json:target.json", names: "sqlite:source.sqlite to json:target.json"),
        (from: "source.db", to: "sqlite:target.sqlite3", names: "sqlite:source.db to sqlite:target.sqlite3"),
    ])
    func copiesEveryPostToAnotherEngine(from: String, to: String, names: String) async throws {
        let sandbox = try Sandbox()
        try await sandbox.seed(Self.posts, into: from)

        let result = try await sandbox.run(["copy", "--from-store", from, "--to-store", to])

        #expect(result.exitCode == 0, "\(result)")
        #expect(
            result.output == "Copied 25 posts from \(names) (25 inserted, 0 updated, 0 unchanged).\n",
            "\(result)"
        )
        #expect(try await sandbox.run(["query", "--store", to, "--count"]).output == "25\n")
        #expect(try await sandbox.posts(in: to) == Self.posts)
    }

    @Test func copyingIntoAStoreWithPostsUpdatesThem() async throws {
        let sandbox = try Sandbox()
        try await sandbox.seed(Self.posts, into: "json:source.json")
        var older = Array(Self.posts.prefix(10))
        older[0].title = "an older title"
        try await sandbox.seed(older, into: "target.sqlite")

        let result = try await sandbox.run(["copy", "--from-store", "json:source.json", "--to-store", "target.sqlite"])

        #expect(result.exitCode == 0, "\(result)")
        #expect(result.output.hasSuffix(" (15 inserted, 1 updated, 9 unchanged).\n"), "\(result)")
        #expect(try await sandbox.posts(in: "target.sqlite") == Self.posts)
    }

    /// Both paths are the user's: a CRLF or an escape in them is shown, and the summary stays one line.
    @Test func pathsWithControlsAreShownOnOneLine() async throws {
        let sandbox = try Sandbox()
        try await sandbox.seed(Self.posts, into: "json:a\r\n.json")

        let result = try await sandbox.run([
            "copy", "--from-store", "json:a\r\n.json", "--to-store", "b\u{1B}[2J.sqlite",
        ])

        #expect(result.exitCode == 0, "\(result)")
        #expect(result.outputLines.count == 1, "\(result)")
        #expect(result.output.contains(#"from json:a\r\n.json to sqlite:b\u{1B}[2J.sqlite"#), "\(result)")
    }

    /// However the second spec spells the first's store: a scheme, `./`, an absolute path, a symbolic link.
    @Test(arguments: ["sqlite:posts.sqlite", "./posts.sqlite", "ABSOLUTE", "link.sqlite"])
    func copyingAStoreOntoItselfIsAUsageError(spelled target: String) async throws {
        let sandbox = try Sandbox()
        try await sandbox.seed(Self.posts, into: "posts.sqlite")
        try FileManager.default.createSymbolicLink(
            atPath: sandbox.path("link.sqlite"),
            withDestinationPath: "posts.sqlite"
        )
        let before = try sandbox.snapshot()

        let result = try await sandbox.run([
            "copy", "--from-store", "posts.sqlite", "--to-store",
            target == "ABSOLUTE" ? sandbox.path("posts.sqlite") : target,
        ])

        #expect(result.exitCode == 64, "\(result)")
        #expect(result.errorLines.count == 1 && result.errorOutput.contains("the same store"), "\(result)")
        #expect(try sandbox.snapshot() == before)
    }

    @Test func copyingFromAMissingStoreCreatesNothing() async throws {
        let sandbox = try Sandbox()

        let result = try await sandbox.run(["copy", "--from-store", "missing.json", "--to-store", "target.sqlite"])

        #expect(result.exitCode == 66, "\(result)")
        #expect(result.errorLines.count == 1, "\(result)")
        #expect(try sandbox.snapshot().isEmpty)
    }

}
