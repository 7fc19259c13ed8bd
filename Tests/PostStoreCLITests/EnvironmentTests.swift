import Foundation
import PostStore
import PostStoreTesting
import Testing

/// `$POSTSTORE_STORE`, `$POSTSTORE_SOURCE`, and the default store under `$XDG_DATA_HOME` (else `$HOME`).
@Suite struct EnvironmentTests {
    static let posts = SamplePosts.make(count: 12)

    @Test func theStoreComesFromPOSTSTORE_STORE() async throws {
        let sandbox = try Sandbox()
        try sandbox.write(Self.posts, to: "input.json")
        let environment = ["POSTSTORE_STORE": "json:env.json"]

        let sync = try await sandbox.run(["sync", "--from", "input.json"], environment: environment)
        let count = try await sandbox.run(["query", "--count"], environment: environment)
        let info = try await sandbox.run(["info", "--format", "json"], environment: environment)

        #expect(sync.exitCode == 0, "\(sync)")
        #expect(sync.output.hasPrefix("Synced input.json into json:env.json: 12 fetched"), "\(sync)")
        #expect(sandbox.exists("env.json"))
        #expect(count.output == "12\n", "\(count)")
        let object = try JSONSerialization.jsonObject(with: info.standardOutput) as? [String: Any]
        #expect(object?["engine"] as? String == "json", "\(info)")
        #expect(object?["location"] as? String == "env.json", "\(info)")
    }

    @Test func theStoreOptionBeatsPOSTSTORE_STORE() async throws {
        let sandbox = try Sandbox()
        try sandbox.write(Self.posts, to: "input.json")

        let sync = try await sandbox.run(
            ["sync", "--from", "input.json", "--store", "option.sqlite"],
            environment: ["POSTSTORE_STORE": "json:env.json"]
        )

        #expect(sync.exitCode == 0, "\(sync)")
        #expect(sandbox.exists("option.sqlite"))
        #expect(!sandbox.exists("env.json"))
    }

    @Test func theSourceComesFromPOSTSTORE_SOURCE() async throws {
        let sandbox = try Sandbox()
        try sandbox.write(SamplePosts.jsonLines(Self.posts), to: "input.ndjson")

        let sync = try await sandbox.run(
            ["sync", "--store", "posts.sqlite"],
            environment: ["POSTSTORE_SOURCE": "input.ndjson"]
        )

        #expect(sync.exitCode == 0, "\(sync)")
        #expect(sync.output.hasPrefix("Synced input.ndjson into sqlite:posts.sqlite: 12 fetched"), "\(sync)")
        #expect(try await sandbox.posts(in: "posts.sqlite") == Self.posts)
    }

    @Test func theFromOptionBeatsPOSTSTORE_SOURCE() async throws {
        let sandbox = try Sandbox()
        try sandbox.write(Self.posts, to: "input.json")

        let sync = try await sandbox.run(
            ["sync", "--from", "input.json", "--store", "posts.sqlite"],
            environment: ["POSTSTORE_SOURCE": "missing.json"]
        )

        #expect(sync.exitCode == 0, "\(sync)")
        #expect(sync.output.hasPrefix("Synced input.json into"), "\(sync)")
    }

    /// An environment without a store named, and where the default store then is.
    struct DefaultStoreCase: CustomTestStringConvertible, Sendable {
        let testDescription: String
        let changes: [String: String?]
        let expected: String

        static let all = [
            DefaultStoreCase(testDescription: "XDG_DATA_HOME set", changes: [:], expected: xdg),
            DefaultStoreCase(testDescription: "XDG_DATA_HOME unset", changes: ["XDG_DATA_HOME": nil], expected: home),
            DefaultStoreCase(testDescription: "XDG_DATA_HOME empty", changes: ["XDG_DATA_HOME": ""], expected: home),
            DefaultStoreCase(testDescription: "POSTSTORE_STORE empty", changes: ["POSTSTORE_STORE": ""], expected: xdg),
        ]
        static let xdg = "xdg-data/poststore/posts.sqlite"
        static let home = "home/.local/share/poststore/posts.sqlite"
    }

    /// Without `--store` or `$POSTSTORE_STORE` the store is `poststore/posts.sqlite` under the data home, whose
    /// folders sync creates; `query` and `info` then find it there.
    @Test(arguments: DefaultStoreCase.all)
    func theDefaultStoreIsUnderTheDataHome(_ example: DefaultStoreCase) async throws {
        let sandbox = try Sandbox()
        try sandbox.write(Self.posts, to: "input.json")

        let sync = try await sandbox.run(["sync", "--from", "input.json"], environment: example.changes)
        try #require(sync.exitCode == 0, "\(sync)")
        let count = try await sandbox.run(["query", "--count"], environment: example.changes)
        let info = try await sandbox.run(["info", "--format", "json"], environment: example.changes)

        let path = sandbox.path(example.expected)
        #expect(sync.output.hasPrefix("Synced input.json into sqlite:\(path): 12 fetched"), "\(sync)")
        #expect(sandbox.exists(example.expected))
        #expect(count.output == "12\n", "\(count)")
        let object = try JSONSerialization.jsonObject(with: info.standardOutput) as? [String: Any]
        #expect(object?["location"] as? String == path, "\(info)")
    }

    @Test func queryingTheMissingDefaultStoreCreatesNothing() async throws {
        let sandbox = try Sandbox()

        let result = try await sandbox.run(["query"])

        #expect(result.exitCode == 66, "\(result)")
        #expect(result.errorLines.count == 1, "\(result)")
        #expect(result.errorOutput.contains("poststore sync"), "\(result)")
        #expect(!sandbox.exists("xdg-data"))
    }

    @Test func anUnknownStoreInPOSTSTORE_STOREIsAUsageError() async throws {
        let sandbox = try Sandbox()

        let result = try await sandbox.run(["query"], environment: ["POSTSTORE_STORE": "posts.txt"])

        #expect(result.exitCode == 64, "\(result)")
        #expect(result.errorLines.first?.hasPrefix("poststore: ") == true, "\(result)")
        #expect(result.errorOutput.contains("posts.txt"), "\(result)")
    }
}
