import Foundation
import PostStore
import PostStoreTestSupport
import PostStoreTesting
import Testing

/// `poststore` with `postgres://` stores, on the test server (``PostgresTestURL``), as a user runs it: each test in
/// a schema of its own, and a URL with a password that must never be printed.
@Suite(.enabled(if: PostgresTestURL.base != nil, "\(PostgresTestURL.howToEnable)"))
struct PostgresCommandTests {
    static let password = "poststore-test-password"
    static let posts = SamplePosts.make(count: 30)

    /// A store URL on the test server in a new schema, logging in as the role that needs `password` (the role
    /// `scripts/postgres.sh` makes): without the password in it, the checks that it is never shown would pass idly.
    static func storeURL(password: String = Self.password) throws -> String {
        let url = PostgresTestURL.url(schema: PostgresTestURL.uniqueSchema())
            .replacingOccurrences(of: "postgres://poststore@", with: "postgres://poststore_password:\(password)@")
        try #require(url.contains(":\(password)@"), "\(PostgresTestURL.variable) must be scripts/postgres.sh's URL")
        return url
    }

    @Test func syncQueryInfoAndMigrateWorkAndNeverShowThePassword() async throws {
        let sandbox = try Sandbox()
        let store = try Self.storeURL()
        try sandbox.write(Self.posts, to: "posts.json")

        let first = try await sandbox.run(["sync", "--from", "posts.json", "--store", store])
        let again = try await sandbox.run(["sync", "--from", "posts.json", "--store", store])
        let query = try await sandbox.run(["query", "--store", store, "--user", "1", "--format", "json"])
        let info = try await sandbox.run(["info", "--store", store])
        let migrations = try await sandbox.run(["migrate", "--status", "--store", store])
        let verbose = try await sandbox.run(["sync", "--verbose", "--from", "posts.json", "--store", store])

        #expect(first.exitCode == 0 && first.output.contains("30 inserted"), "\(first)")
        #expect(again.exitCode == 0 && again.output.contains("0 inserted, 0 updated, 30 unchanged"), "\(again)")
        #expect(try PostJSON.decode(query.standardOutput) == Self.posts.filter { $0.userId == 1 })
        #expect(info.output.contains("engine:         postgres"), "\(info)")
        #expect(info.output.contains("schema version: 6") && info.output.contains("posts:          30"), "\(info)")
        #expect(migrations.outputLines.allSatisfy { $0.hasPrefix("applied  ") } && migrations.outputLines.count == 6)
        #expect(verbose.exitCode == 0, "\(verbose)")
        for result in [first, again, query, info, migrations, verbose] {
            #expect(!(result.output + result.errorOutput).contains(Self.password), "\(result)")
        }
    }

    @Test func copyGoesFromJSONToTheServerAndOnToSQLite() async throws {
        let sandbox = try Sandbox()
        let store = try Self.storeURL()
        try await sandbox.seed(Self.posts, into: "json:source.json")

        let toServer = try await sandbox.run(["copy", "--from-store", "json:source.json", "--to-store", store])
        let fromServer = try await sandbox.run(["copy", "--from-store", store, "--to-store", "target.sqlite"])

        #expect(toServer.exitCode == 0 && fromServer.exitCode == 0, "\(toServer) \(fromServer)")
        #expect(try await sandbox.posts(in: "target.sqlite") == Self.posts)
        #expect(
            !(toServer.output + toServer.errorOutput + fromServer.output + fromServer.errorOutput).contains(
                Self.password
            )
        )
    }

    @Test func aPostWithANULCharacterIsRefusedWholeWithOneLineAndExit65() async throws {
        let sandbox = try Sandbox()
        let store = try Self.storeURL()
        try sandbox.write(Self.posts, to: "posts.json")
        var changed = Self.posts
        changed[0].title = "changed"
        changed[17].body = "a NUL \u{0} inside"
        try sandbox.write(changed, to: "nul.json")
        try await sandbox.seed(changed, into: "json:nul-store.json")

        let first = try await sandbox.run(["sync", "--from", "posts.json", "--store", store])
        let refused = try await sandbox.run(["sync", "--from", "nul.json", "--store", store])
        let copied = try await sandbox.run(["copy", "--from-store", "json:nul-store.json", "--to-store", store])
        let query = try await sandbox.run(["query", "--store", store, "--format", "json"])

        #expect(first.exitCode == 0, "\(first)")
        for result in [refused, copied] {
            #expect(result.exitCode == 65, "\(result)")
            #expect(result.errorLines.count == 1 && result.errorOutput.contains("Post 18 "), "\(result)")
            #expect(result.errorOutput.contains("NUL"), "\(result)")
        }
        #expect(try PostJSON.decode(query.standardOutput) == Self.posts, "nothing of either write was kept")
    }

    /// A dry run into a schema that holds no store yet previews against an empty store in memory, which keeps a NUL
    /// character: the source is checked as the new store's first write would check it, and nothing is created.
    @Test func aDryRunIntoANewStoreRefusesANULCharacterAsTheSyncWould() async throws {
        let sandbox = try Sandbox()
        let store = try Self.storeURL()
        var posts = Self.posts
        posts[17].title = "a NUL \u{0} inside"
        try sandbox.write(posts, to: "nul.json")

        let dryRun = try await sandbox.run(["sync", "--from", "nul.json", "--store", store, "--dry-run"])
        let info = try await sandbox.run(["info", "--store", store])

        #expect(dryRun.exitCode == 65, "\(dryRun)")
        #expect(dryRun.errorLines.count == 1 && dryRun.errorOutput.contains("Post 18 "), "\(dryRun)")
        #expect(dryRun.errorOutput.contains("NUL"), "\(dryRun)")
        #expect(info.exitCode == 66, "the dry run created no store: \(info)")
    }

    /// A first sync that fails, before writing (a missing source) or while writing (a post PostgreSQL cannot keep),
    /// writes no post, and leaves the store's empty tables, as documented (the store is made when it is opened:
    /// made in the first write's transaction, its table would be filled without its free space map, which slowed
    /// the first changed re-sync 1.4–1.7×; Benchmarks/README.md).
    @Test func aFirstSyncThatFailsWritesNoPostAndLeavesAnEmptyStore() async throws {
        let sandbox = try Sandbox()
        let store = try Self.storeURL()
        var posts = Self.posts
        posts[17].title = "a NUL \u{0} inside"
        try sandbox.write(posts, to: "nul.json")

        let missing = try await sandbox.run(["sync", "--from", "missing.json", "--store", store])
        let refused = try await sandbox.run(["sync", "--from", "nul.json", "--store", store])
        let after = try await sandbox.run(["info", "--store", store])

        #expect(missing.exitCode == 66, "\(missing)")
        #expect(refused.exitCode == 65 && refused.errorOutput.contains("Post 18 "), "\(refused)")
        let fields = after.outputLines.map { $0.split(separator: " ", omittingEmptySubsequences: true) }
        #expect(after.exitCode == 0, "\(after)")
        #expect(fields.contains(["posts:", "0"]) && fields.contains(["last", "sync:", "never"]), "\(after)")
    }

    @Test func copyingAStoreOntoItselfUnderTheSchemesAliasIsAUsageError() async throws {
        let sandbox = try Sandbox()
        let store = try Self.storeURL()
        try sandbox.write(Self.posts, to: "posts.json")
        let first = try await sandbox.run(["sync", "--from", "posts.json", "--store", store])

        let alias = store.replacingOccurrences(of: "postgres://", with: "postgresql://")
        let copied = try await sandbox.run(["copy", "--from-store", store, "--to-store", alias])

        #expect(first.exitCode == 0, "\(first)")
        #expect(copied.exitCode == 64 && copied.errorOutput.contains("the same store"), "\(copied)")
    }

    @Test func aRefusedPasswordIsOneLineAndExit77() async throws {
        let sandbox = try Sandbox()
        try sandbox.write(Self.posts, to: "posts.json")

        let result = try await sandbox.run(
            ["sync", "--from", "posts.json", "--store", try Self.storeURL(password: "wrong-password")]
        )

        #expect(result.exitCode == 77, "\(result)")
        #expect(result.errorLines.count == 1 && result.errorOutput.contains("refused the login"), "\(result)")
        #expect(!result.errorOutput.contains("wrong-password"))
    }

    @Test func anUnreachableServerIsOneLineAndExit69() async throws {
        let sandbox = try Sandbox()
        // A port nothing listens on any more: a stopped test server's.
        let server = try TestHTTPServer { _ in .response(status: 200) }
        let port = server.port
        server.stop()

        let result = try await sandbox.run(["query", "--store", "postgres://poststore:secret@127.0.0.1:\(port)/db"])

        #expect(result.exitCode == 69, "\(result)")
        #expect(result.errorLines.count == 1 && result.errorOutput.contains("Cannot connect"), "\(result)")
        #expect(!result.errorOutput.contains("secret"))
    }

    @Test func readingAStoreThatIsNotThereSaysHowToMakeIt() async throws {
        let sandbox = try Sandbox()
        let store = try Self.storeURL()

        let result = try await sandbox.run(["query", "--store", store])

        #expect(result.exitCode == 66, "\(result)")
        #expect(result.errorOutput.contains("There is no PostStore store in schema"), "\(result)")
        // Quoted for the shell: the URL's `?` would be a pattern there.
        #expect(result.errorOutput.contains("Run `poststore sync --store 'postgres://poststore_password@"), "\(result)")
        #expect(!result.errorOutput.contains(Self.password))
    }

    @Test func aMissingDatabaseIsExit69WithAdviceThatWorks() async throws {
        let store = try Self.storeURL().replacingOccurrences(of: "/postgres?", with: "/no_such_database?")
        try #require(store.contains("/no_such_database?"))

        let result = try await Sandbox().run(["query", "--store", store])

        #expect(result.exitCode == 69, "\(result)")
        #expect(result.errorLines.count == 1 && result.errorOutput.contains("create it first (createdb)"), "\(result)")
        // `poststore sync` creates stores, never databases: advice to run it would not help.
        #expect(!result.errorOutput.contains("poststore sync"), "\(result)")
    }

    @Test(arguments: [
        "postgres://h/d?sslmode=sometimes", "postgres:missing-slashes", "postgres://h:99999/d",
        "postgres://h/d?schema=a&schema=b", "postgres://h/d?schema=pg_mine",
    ])
    func aBadURLIsAUsageError(url: String) async throws {
        let result = try await Sandbox().run(["query", "--store", url])

        #expect(result.exitCode == 64, "\(result)")
        #expect(result.errorLines.count == 1, "\(result)")
        #expect(result.errorOutput.hasSuffix(" (see 'poststore query --help')\n"), "\(result)")
    }
}
