import Foundation
import PostStore
import PostStoreTesting
import Testing

@testable import PostStoreCLI

/// `poststore info`, as text and as JSON.
@Suite struct InfoCommandTests {
    static let posts = SamplePosts.make(count: 25)

    @Test(arguments: [
        ("sqlite:posts.sqlite", "sqlite", "posts.sqlite", 7), ("json:posts.json", "json", "posts.json", 2),
    ])
    func textDescribesTheStore(store: String, engine: String, location: String, version: Int) async throws {
        let sandbox = try Sandbox()
        try await sandbox.seed(Self.posts, into: store)

        let result = try await sandbox.run(["info", "--store", store])

        #expect(result.exitCode == 0, "\(result)")
        #expect(result.standardError.isEmpty)
        let lines = result.outputLines
        #expect(lines.count == 6, "\(result)")
        guard lines.count == 6 else { return }
        #expect(lines[0] == "engine:         \(engine)")
        #expect(lines[1] == "location:       \(location)")
        #expect(lines[2] == "schema version: \(version)")
        #expect(lines[3] == "posts:          25")
        #expect(lines[4].hasPrefix("last sync:      "))
        #expect(lines[4].hasSuffix(" from seed.json (25 fetched)"))
        #expect(lines[5] == "etag:           -")
    }

    /// The store's path and the sync's source come from the user and a server: their controls (a CRLF, an escape)
    /// are shown as escapes, as the table and every message show them, so the text keeps its six lines.
    @Test func textShowsControlsInThePathAndTheSource() async throws {
        let sandbox = try Sandbox()
        let source = "in\r\n\u{1B}[31m.json"
        let store = "sqlite:posts\r\u{1B}]0;x\u{7}.sqlite"
        try sandbox.write(Self.posts, to: source)
        let sync = try await sandbox.run(["sync", "--from", source, "--store", store])
        #expect(sync.exitCode == 0, "\(sync)")

        let result = try await sandbox.run(["info", "--store", store])

        #expect(result.exitCode == 0, "\(result)")
        #expect(result.outputLines.count == 6, "\(result)")
        let controls = result.output.unicodeScalars.filter { $0.properties.generalCategory == .control && $0 != "\n" }
        #expect(controls.isEmpty, "\(result)")
        #expect(result.output.contains(#"posts\r\u{1B}]0;x\u{07}.sqlite"#), "\(result)")
        #expect(result.output.contains(#"in\r\n\u{1B}[31m.json"#), "\(result)")
    }

    @Test(arguments: [("sqlite:posts.sqlite", "sqlite", 7), ("json:posts.json", "json", 2)])
    func jsonHasEveryKey(store: String, engine: String, version: Int) async throws {
        let sandbox = try Sandbox()
        try await sandbox.seed(Self.posts, into: store)

        let result = try await sandbox.run(["info", "--store", store, "--format", "json"])

        #expect(result.exitCode == 0, "\(result)")
        #expect(result.outputLines.count == 1)
        let info = try #require(try JSONSerialization.jsonObject(with: result.standardOutput) as? [String: Any])
        #expect(Set(info.keys) == ["engine", "location", "schemaVersion", "postCount", "lastSync"])
        #expect(info["engine"] as? String == engine)
        #expect(info["location"] as? String == String(store.drop { $0 != ":" }.dropFirst()))
        #expect(info["schemaVersion"] as? Int == version)
        #expect(info["postCount"] as? Int == 25)
        let lastSync = try #require(info["lastSync"] as? [String: Any])
        #expect(lastSync["source"] as? String == "seed.json")
        #expect(lastSync["fetched"] as? Int == 25)
        let syncedAt = try #require(lastSync["syncedAt"] as? String)
        let date = try Date(syncedAt, strategy: .iso8601)
        #expect(abs(date.timeIntervalSinceNow) < 600, "\(syncedAt)")
    }

    /// The version shown is the one the JSON file records, read with its posts. This build reads versions 1 and 2, so
    /// a file that records another version cannot be described: `info` refuses it as `open` does (exit 74), names
    /// the version the file records, prints nothing on standard output, and leaves the file untouched.
    @Test(arguments: ["text", "json"])
    func aJSONStoreOfANewerFormatIsRefusedNamingItsVersion(format: String) async throws {
        let sandbox = try Sandbox()
        try await sandbox.seed(Self.posts, into: "json:posts.json")
        let original = try #require(sandbox.contents(of: "posts.json"))
        let newer = try #require(
            String(decoding: original, as: UTF8.self).replacing("\"formatVersion\": 2,", with: "\"formatVersion\": 3,")
                .data(using: .utf8)
        )
        #expect(newer != original)
        try sandbox.write(newer, to: "posts.json")

        let result = try await sandbox.run(["info", "--store", "json:posts.json", "--format", format])

        #expect(result.exitCode == 74, "\(result)")
        #expect(result.standardOutput.isEmpty, "\(result)")
        #expect(result.errorOutput.contains("format version 3"), "\(result)")
        #expect(sandbox.contents(of: "posts.json") == newer)
    }

    /// A store that was never synced (here, filled by `copy`) says "never" as text.
    @Test func aStoreNeverSyncedSaysSo() async throws {
        let sandbox = try Sandbox()
        try await sandbox.seed(Self.posts, into: "json:source.json")
        let copy = try await sandbox.run(["copy", "--from-store", "json:source.json", "--to-store", "copy.sqlite"])

        let result = try await sandbox.run(["info", "--store", "copy.sqlite"])

        #expect(copy.exitCode == 0, "\(copy)")
        #expect(result.exitCode == 0, "\(result)")
        #expect(result.outputLines.last == "last sync:      never", "\(result)")
    }

    /// The JSON form keeps its five keys even when a value is missing (`null`), so a script can rely on them: a store
    /// never synced has no last sync, whichever its engine.
    @Test(arguments: ["copy.sqlite", "json:copy.json"])
    func jsonKeepsEveryKeyWithoutAValue(store: String) async throws {
        let sandbox = try Sandbox()
        try await sandbox.seed(Self.posts, into: "json:source.json")
        let copy = try await sandbox.run(["copy", "--from-store", "json:source.json", "--to-store", store])

        let result = try await sandbox.run(["info", "--store", store, "--format", "json"])

        #expect(copy.exitCode == 0, "\(copy)")
        #expect(result.exitCode == 0, "\(result)")
        let info = try #require(try JSONSerialization.jsonObject(with: result.standardOutput) as? [String: Any])
        #expect(Set(info.keys) == ["engine", "location", "schemaVersion", "postCount", "lastSync"], "\(result)")
        #expect(info["lastSync"] is NSNull, "\(result)")
    }

    /// A store without a schema version (no engine `info` accepts has none today) keeps the key too, as `null`.
    @Test func jsonKeepsTheSchemaVersionKeyWithoutOne() throws {
        let info = StoreInfo(engine: "x", location: "y", schemaVersion: nil, postCount: 0, lastSync: nil)

        let object = try #require(try JSONSerialization.jsonObject(with: info.json()) as? [String: Any])

        #expect(object["schemaVersion"] is NSNull)
    }
}
