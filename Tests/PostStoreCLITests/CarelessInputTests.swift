import Foundation
import PostStoreTesting
import Testing

/// Mistakes a person makes at the shell: each gets one line, the documented code, and no stray files.
@Suite struct CarelessInputTests {
    @Test(arguments: [
        ["sync", "--from", "posts.json", "--store", "new.sqlite/"], ["query", "--store", "posts.sqlite/"],
        ["info", "--store", "json:posts.json/"], ["copy", "--from-store", "posts.sqlite", "--to-store", "copy.db/"],
    ])
    func aStorePathEndingWithASlashIsAUsageError(arguments: [String]) async throws {
        let sandbox = try Sandbox()
        try await sandbox.seed(SamplePosts.make(count: 2), into: "posts.sqlite")
        try await sandbox.seed(SamplePosts.make(count: 2), into: "json:posts.json")
        let before = try sandbox.snapshot()

        let result = try await sandbox.run(arguments)

        #expect(result.exitCode == 64, "\(result)")
        #expect(result.errorLines.first?.contains("ends with a slash") == true, "\(result)")
        #expect(try sandbox.snapshot() == before)
    }

    @Test func aValueOutsideItsChoicesListsThemOnTheOneLine() async throws {
        let sandbox = try Sandbox()

        let result = try await sandbox.run(["query", "--store", "posts.sqlite", "--sort", "name"])

        #expect(result.exitCode == 64, "\(result)")
        #expect(result.errorLines.count == 1, "\(result)")
        let line = try #require(result.errorLines.first)
        #expect(line.contains(": id, -id, title, -title") && !line.contains("\\n"), "\(result)")
        #expect(line.hasSuffix("(see 'poststore query --help')"), "\(result)")
    }

    @Test func aFolderAsTheSourceIsNoInputFile() async throws {
        let sandbox = try Sandbox()
        try FileManager.default.createDirectory(atPath: sandbox.path("posts"), withIntermediateDirectories: true)

        let result = try await sandbox.run(["sync", "--from", "posts", "--store", "store.sqlite"])

        #expect(result.exitCode == 66, "\(result)")
        #expect(result.errorLines == ["poststore: posts is a folder, not a file of posts."])
        #expect(!sandbox.exists("store.sqlite"))
    }

    @Test(arguments: ["missing/store.sqlite", "json:missing/store.json"])
    func aStoreInAMissingFolderSaysSo(store: String) async throws {
        let sandbox = try Sandbox()
        try sandbox.write(SamplePosts.make(count: 2), to: "posts.json")

        let result = try await sandbox.run(["sync", "--from", "posts.json", "--store", store])

        #expect(result.exitCode == 74, "\(result)")
        #expect(result.errorLines.count == 1 && result.errorOutput.contains("folder missing"), "\(result)")
        #expect(!sandbox.exists("missing"))
    }

    @Test func aDryRunIntoTheDefaultStoreCreatesNothing() async throws {
        let sandbox = try Sandbox()
        try sandbox.write(SamplePosts.make(count: 2), to: "posts.json")

        let result = try await sandbox.run(["sync", "--from", "posts.json", "--dry-run"])

        #expect(result.exitCode == 0, "\(result)")
        #expect(result.output.hasPrefix("Dry run: would sync posts.json"), "\(result)")
        #expect(!sandbox.exists("xdg-data"))
    }

    @Test func migratingAMissingStoreSaysToSyncFirst() async throws {
        let sandbox = try Sandbox()

        let result = try await sandbox.run(["migrate", "--store", "nope.sqlite"])

        #expect(result.exitCode == 66, "\(result)")
        #expect(result.errorOutput.contains("Run `poststore sync --store sqlite:nope.sqlite` first."), "\(result)")
    }

    @Test(arguments: ["missing/store.sqlite", "json:missing/store.json"])
    func aDryRunIntoAMissingFolderFailsAsTheSyncWould(store: String) async throws {
        let sandbox = try Sandbox()
        try sandbox.write(SamplePosts.make(count: 2), to: "posts.json")

        let result = try await sandbox.run(["sync", "--from", "posts.json", "--store", store, "--dry-run"])

        #expect(result.exitCode == 74, "\(result)")
        #expect(result.errorLines.count == 1 && result.errorOutput.contains("does not exist"), "\(result)")
    }

    @Test func aDryRunIntoADefaultStoreThatIsAFolderFailsAsTheSyncWould() async throws {
        let sandbox = try Sandbox()
        try sandbox.write(SamplePosts.make(count: 2), to: "posts.json")
        let folder = sandbox.path("xdg-data/poststore/posts.sqlite")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)

        let dryRun = try await sandbox.run(["sync", "--from", "posts.json", "--dry-run"])
        let sync = try await sandbox.run(["sync", "--from", "posts.json"])

        #expect(dryRun.exitCode == 74, "\(dryRun)")
        #expect(dryRun.errorLines.count == 1 && dryRun.errorOutput.contains("is a folder"), "\(dryRun)")
        #expect(sync.exitCode == 74 && sync.errorLines == dryRun.errorLines, "\(sync)")
    }

    /// Foundation's path functions crash on a one-character relative path; the CLI cuts paths by hand.
    @Test(arguments: ["sqlite:x", "json:y", "sqlite:é"])
    func aOneCharacterStorePathIsAStoreLikeAnyOther(store: String) async throws {
        let sandbox = try Sandbox()
        try sandbox.write(SamplePosts.make(count: 3), to: "posts.json")

        let sync = try await sandbox.run(["sync", "--from", "posts.json", "--store", store])
        let copy = try await sandbox.run(["copy", "--from-store", store, "--to-store", "sqlite:z"])

        #expect(sync.exitCode == 0, "\(sync)")
        #expect(copy.exitCode == 0, "\(copy)")
        #expect(try await sandbox.posts(in: "sqlite:z") == SamplePosts.make(count: 3))
    }

    @Test(arguments: ["folder.sqlite", "json:folder.json"])
    func aStorePathThatIsAFolderIsRefusedAndLeftAlone(store: String) async throws {
        let sandbox = try Sandbox()
        let folder = String(store.split(separator: ":").last!)
        try FileManager.default.createDirectory(atPath: sandbox.path(folder), withIntermediateDirectories: true)
        try await sandbox.seed(SamplePosts.make(count: 2), into: "source.sqlite")

        for (arguments, code) in [
            (["query", "--store", store], 66), (["info", "--store", store], 66), (["migrate", "--store", store], 66),
            (["copy", "--from-store", store, "--to-store", "copy.sqlite"], 66),
            (["sync", "--from", "seed.json", "--store", store], 74),
            (["copy", "--from-store", "source.sqlite", "--to-store", store], 74),
        ] {
            let result = try await sandbox.run(arguments)

            #expect(result.exitCode == Int32(code), "\(result)")
            #expect(result.errorLines.count == 1 && result.errorOutput.contains("is a folder"), "\(result)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.path(folder)).isEmpty)
    }

    /// A symbolic link whose target does not exist yet, named without a folder: the store is created at the target,
    /// beside the link (it once resolved to the file system's root).
    @Test func aStoreBehindARelativeLinkIsCreatedBesideIt() async throws {
        let sandbox = try Sandbox()
        try sandbox.write(SamplePosts.make(count: 2), to: "posts.json")
        try FileManager.default.createSymbolicLink(atPath: sandbox.path("link.json"), withDestinationPath: "real.json")

        let result = try await sandbox.run(["sync", "--from", "posts.json", "--store", "json:link.json"])

        #expect(result.exitCode == 0, "\(result)")
        #expect(sandbox.exists("real.json"))
        #expect(try await sandbox.posts(in: "json:real.json") == SamplePosts.make(count: 2))
    }

    @Test(arguments: [
        (["sync", "--timeout", "1e18"], "--timeout must be a number of seconds from 0.001 to 86400"),
        (["sync", "--timeout", "0.0004"], "--timeout must be a number of seconds from 0.001 to 86400"),
        (["sync", "--retries", "9223372036854775807"], "--retries must be from 0 to 100"),
        (["sync", "--max-post-size", "0"], "a size is a whole number of bytes above 0"),
        (["sync", "--max-payload-size", "-1"], "a size is a whole number of bytes above 0"),
        (["sync", "--max-post-size", "1x"], "a size is a whole number of bytes above 0"),
        (["query", "--count", "--limit", "5"], "--count counts every matching post"),
        (["query", "--count", "--offset", "1"], "--count counts every matching post"),
    ])
    func outOfRangeValuesAreUsageErrorsThatSayWhy(arguments: [String], message: String) async throws {
        let sandbox = try Sandbox()

        let result = try await sandbox.run(arguments + ["--store", "posts.sqlite"])

        #expect(result.exitCode == 64, "\(result)")
        #expect(result.errorLines.count == 1 && result.errorOutput.contains(message), "\(result)")
        #expect(!sandbox.exists("posts.sqlite"))
    }

    /// An error quoting a path (or a server's answer) stays one line, and sends the terminal no control character.
    @Test func aPathWithALineBreakOrAnEscapeGivesOneLine() async throws {
        let sandbox = try Sandbox()

        let query = try await sandbox.run(["query", "--store", "sqlite:new\nline\u{1B}[31m.sqlite"])
        let sync = try await sandbox.run(["sync", "--from", "no\nsuch.json", "--store", "posts.sqlite"])

        #expect(query.exitCode == 66, "\(query)")
        #expect(query.errorLines.count == 1 && query.errorOutput.contains(#"new\nline\u{1B}[31m"#), "\(query)")
        #expect(sync.exitCode == 66, "\(sync)")
        #expect(sync.errorLines.count == 1 && sync.errorOutput.contains(#"no\nsuch.json"#), "\(sync)")
        #expect(!(query.errorOutput + sync.errorOutput).contains("\u{1B}"))
    }

    /// A usage error quoting a value with CRLF, a lone CR or an escape: one line, controls shown, nothing cut off.
    @Test(arguments: [
        (["--limit", "5\r\n6"], #"'5\r\n6' is invalid"#),
        (["--sort", "x\ry\u{1B}[31m"], #"'x\ry\u{1B}[31m' is invalid"#),
        (["--id", "\n7"], #"'\n7' is invalid"#),
    ])
    func aUsageErrorQuotingALineBreakGivesOneLine(arguments: [String], shown: String) async throws {
        let sandbox = try Sandbox()

        let result = try await sandbox.run(["query", "--store", "posts.sqlite"] + arguments)

        #expect(result.exitCode == 64, "\(result)")
        #expect(result.errorLines.count == 1, "\(result)")
        #expect(result.errorOutput.hasSuffix("(see 'poststore query --help')\n"), "\(result)")
        let controls = result.errorOutput.unicodeScalars.dropLast().filter { $0.properties.generalCategory == .control }
        #expect(controls.isEmpty, "\(result)")
        #expect(result.errorOutput.contains(shown), "\(result)")
    }

    @Test func valuesStartingWithADashReachTheQuery() async throws {
        let sandbox = try Sandbox()
        var posts = SamplePosts.make(count: 3)
        posts[1].title = "-x marks the spot"
        try await sandbox.seed(posts, into: "posts.sqlite")

        let search = try await sandbox.posts(in: "posts.sqlite", ["--search", "-x"])
        let negativeId = try await sandbox.run(["query", "--store", "posts.sqlite", "--id", "-5", "--count"])

        #expect(search.map(\.id) == [posts[1].id])
        #expect(negativeId.exitCode == 0 && negativeId.output == "0\n", "\(negativeId)")
    }
}
