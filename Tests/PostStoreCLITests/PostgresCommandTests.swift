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

    /// A store URL on the test server in a new schema, logging in as the role that needs `password`.
    static func storeURL(password: String = Self.password) -> String {
        PostgresTestURL.url(schema: PostgresTestURL.uniqueSchema())
            .replacingOccurrences(of: "postgres://poststore@", with: "postgres://poststore_password:\(password)@")
    }

    @Test func syncQueryInfoAndMigrateWorkAndNeverShowThePassword() async throws {
        let sandbox = try Sandbox()
        let store = Self.storeURL()
        try sandbox.write(Self.posts, to: "posts.json")

        let first = try await sandbox.run(["sync", "--from", "posts.json", "--store", store])
        let again = try await sandbox.run(["sync", "--from", "posts.json", "--store", store])
        let query = try await sandbox.run(["query", "--store", store, "--user", "1", "--format", "json"])
        let info = try await sandbox.run(["info", "--store", store])
        let migrations = try await sandbox.run(["migrate", "--status", "--store", store])

        #expect(first.exitCode == 0 && first.output.contains("30 inserted"), "\(first)")
        #expect(again.exitCode == 0 && again.output.contains("0 inserted, 0 updated, 30 unchanged"), "\(again)")
        #expect(try PostJSON.decode(query.standardOutput) == Self.posts.filter { $0.userId == 1 })
        #expect(info.output.contains("engine:         postgres"), "\(info)")
        #expect(info.output.contains("schema version: 3") && info.output.contains("posts:          30"), "\(info)")
        #expect(migrations.outputLines.allSatisfy { $0.hasPrefix("applied  ") } && migrations.outputLines.count == 3)
        for result in [first, again, query, info, migrations] {
            #expect(!(result.output + result.errorOutput).contains(Self.password), "\(result)")
        }
    }

    @Test func copyGoesToAndFromEveryOtherEngine() async throws {
        let sandbox = try Sandbox()
        let store = Self.storeURL()
        try await sandbox.seed(Self.posts, into: "json:source.json")

        let toServer = try await sandbox.run(["copy", "--from-store", "json:source.json", "--to-store", store])
        let fromServer = try await sandbox.run(["copy", "--from-store", store, "--to-store", "target.sqlite"])

        #expect(toServer.exitCode == 0 && fromServer.exitCode == 0, "\(toServer) \(fromServer)")
        #expect(try await sandbox.posts(in: "target.sqlite") == Self.posts)
        #expect(!(toServer.output + fromServer.output).contains(Self.password))
    }

    @Test func aRefusedPasswordIsOneLineAndExit77() async throws {
        let sandbox = try Sandbox()
        try sandbox.write(Self.posts, to: "posts.json")

        let result = try await sandbox.run(
            ["sync", "--from", "posts.json", "--store", Self.storeURL(password: "wrong-password")]
        )

        #expect(result.exitCode == 77, "\(result)")
        #expect(result.errorLines.count == 1 && result.errorOutput.contains("refused the login"), "\(result)")
        #expect(!result.errorOutput.contains("wrong-password"))
    }

    @Test func anUnreachableServerIsOneLineAndExit69() async throws {
        let sandbox = try Sandbox()
        // A port nothing listens on: the system picks one, closes it, and refuses connections to it.
        let port = try freePort()

        let result = try await sandbox.run(["query", "--store", "postgres://poststore:secret@127.0.0.1:\(port)/db"])

        #expect(result.exitCode == 69, "\(result)")
        #expect(result.errorLines.count == 1 && result.errorOutput.contains("Cannot connect"), "\(result)")
        #expect(!result.errorOutput.contains("secret"))
    }

    @Test func readingAStoreThatIsNotThereSaysHowToMakeIt() async throws {
        let sandbox = try Sandbox()
        let store = Self.storeURL()

        let result = try await sandbox.run(["query", "--store", store])

        #expect(result.exitCode == 66, "\(result)")
        #expect(result.errorOutput.contains("There is no PostStore store in schema"), "\(result)")
        #expect(result.errorOutput.contains("Run `poststore sync --store postgres://poststore_password@"), "\(result)")
        #expect(!result.errorOutput.contains(Self.password))
    }

    @Test(arguments: ["postgres://h/d?sslmode=sometimes", "postgres:missing-slashes", "postgres://h:99999/d"])
    func aBadURLIsAUsageError(url: String) async throws {
        let result = try await Sandbox().run(["query", "--store", url])

        #expect(result.exitCode == 64, "\(result)")
        #expect(result.errorLines.count == 1, "\(result)")
    }

    private func freePort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
        }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
