import Foundation
import PostStore
import PostStoreTestSupport
import PostStoreTesting
import Testing

/// `memory:` lasts one command: refused (64, one line saying why) where it would read nothing or lose the work,
/// kept where the command's life is the store's — a dry run that checks a source, a throwaway server.
@Suite struct InMemoryStoreTests {
    static let usageErrors: [(arguments: [String], environment: [String: String], line: String)] = [
        (
            ["query", "--store", "memory:"], [:],
            "poststore: An in-memory store (--store memory:) starts empty and ends with the command, so there is "
                + "nothing to query; name a file or database store (see 'poststore query --help')"
        ),
        (
            ["info", "--store", "MEMORY:"], [:],
            "poststore: An in-memory store (--store memory:) starts empty and ends with the command, so there is "
                + "nothing to describe; name a file or database store (see 'poststore info --help')"
        ),
        (
            ["migrate", "--status"], ["POSTSTORE_STORE": "memory:"],
            "poststore: An in-memory store ($POSTSTORE_STORE=memory:) starts empty and ends with the command, so "
                + "there is nothing to migrate; name a file or database store (see 'poststore migrate --help')"
        ),
        (
            ["sync", "--from", "posts.json", "--store", "memory:"], [:],
            "poststore: An in-memory store (--store memory:) starts empty and ends with the command, so the sync "
                + "would keep nothing; to check a source, use sync --dry-run, or name a file or database store "
                + "(see 'poststore sync --help')"
        ),
        (
            ["copy", "--from-store", "posts.sqlite", "--to-store", "memory:"], [:],
            "poststore: An in-memory store (--to-store memory:) starts empty and ends with the command, so the "
                + "copied posts would be lost; name a file or database store (see 'poststore copy --help')"
        ),
        (
            ["copy", "--from-store", "memory:", "--to-store", "copy.sqlite"], [:],
            "poststore: An in-memory store (--from-store memory:) starts empty and ends with the command, so there "
                + "is nothing to copy; name a file or database store (see 'poststore copy --help')"
        ),
        (
            ["serve", "--store", "memory:", "--port", "0"], [:],
            "poststore: An in-memory store (--store memory:) starts empty and ends with the command, so a server "
                + "that takes no writes would serve nothing; add --allow-writes, or name a file or database store "
                + "(see 'poststore serve --help')"
        ),
    ]

    @Test(arguments: usageErrors)
    func commandsThatWouldLoseTheirWorkRefuseIt(
        arguments: [String],
        environment: [String: String],
        line: String
    ) async throws {
        let sandbox = try Sandbox()
        try await sandbox.seed(SamplePosts.make(count: 3), into: "posts.sqlite")
        try sandbox.write(SamplePosts.make(count: 3), to: "posts.json")
        let before = try sandbox.snapshot()

        let result = try await sandbox.run(arguments, environment: environment)

        #expect(result.exitCode == 64, "\(result)")
        #expect(result.output.isEmpty, "\(result)")
        #expect(result.errorLines == [line], "\(result)")
        #expect(try sandbox.snapshot() == before, "nothing may be written")
    }

    /// A dry run writes nothing anyway: into memory, it checks a source.
    @Test func aDryRunIntoMemoryChecksASource() async throws {
        let sandbox = try Sandbox()
        try sandbox.write(SamplePosts.make(count: 3), to: "posts.json")

        let result = try await sandbox.run(["sync", "--from", "posts.json", "--store", "memory:", "--dry-run"])

        #expect(result.exitCode == 0, "\(result)")
        #expect(
            result.output.hasPrefix("Dry run: would sync posts.json into an in-memory store: 3 fetched, 3 inserted")
        )
    }

    /// A throwaway server: it starts empty, takes writes, and answers them back until it stops.
    @Test func serveKeepsAnInMemoryStoreAsLongAsItRuns() async throws {
        let sandbox = try Sandbox()
        let control = ChildControl()
        async let served = sandbox.run(
            ["serve", "--store", "memory:", "--allow-writes", "--port", "0", "--quiet"],
            control: control
        )
        let client = RawHTTPClient(port: try await control.servedPort())
        let body = Data(#"{"userId": 1, "title": "kept", "body": "while the server runs"}"#.utf8)
        let created = try await client.send("POST", "/posts", body: body)
        let listed = try await client.send("GET", "/posts")
        control.send(SIGTERM)
        let result = try await served

        #expect(created.status == 201, "\(created)")
        #expect(listed.status == 200, "\(listed)")
        #expect(try PostJSON.decode(listed.body).map(\.title) == ["kept"], "\(listed)")
        #expect(result.exitCode == 0, "\(result)")
    }
}
