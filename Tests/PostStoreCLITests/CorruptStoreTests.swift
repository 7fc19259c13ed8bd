import Foundation
import PostStore
import PostStoreTestSupport
import PostStoreTesting
import Testing

/// Damaged and foreign store files: every command that opens one refuses with exit 74 and one line naming the file,
/// and leaves every file in the folder byte for byte as it was (nothing written over, no sidecar left behind).
@Suite struct CorruptStoreTests {
    /// A way to damage a store, applied to the bytes of a real 100-post store of the same engine.
    struct Corruption: Sendable, CustomTestStringConvertible {
        let name: String
        /// `sqlite` or `json`.
        let engine: String
        let damage: @Sendable (_ store: Data, _ sandbox: Sandbox, _ file: String) throws -> Void

        var testDescription: String { "\(engine): \(name)" }

        /// The store's spec, as the commands take it.
        var store: String { engine == "sqlite" ? "damaged.sqlite" : "json:damaged.json" }
        var file: String { engine == "sqlite" ? "damaged.sqlite" : "damaged.json" }
    }

    static let corruptions: [Corruption] = [
        Corruption(name: "truncated to half", engine: "sqlite") { store, sandbox, file in
            try sandbox.write(store.prefix(store.count / 2), to: file)
        },
        Corruption(name: "truncated to its first page", engine: "sqlite") { store, sandbox, file in
            try sandbox.write(store.prefix(4096), to: file)
        },
        Corruption(name: "truncated inside the header", engine: "sqlite") { store, sandbox, file in
            try sandbox.write(store.prefix(60), to: file)
        },
        Corruption(name: "zero-filled", engine: "sqlite") { store, sandbox, file in
            try sandbox.write(Data(count: store.count), to: file)
        },
        Corruption(name: "random bytes", engine: "sqlite") { store, sandbox, file in
            try sandbox.write(randomBytes(store.count, seed: 1), to: file)
        },
        Corruption(name: "a valid header, then random bytes", engine: "sqlite") { store, sandbox, file in
            try sandbox.write(store.prefix(100) + randomBytes(store.count - 100, seed: 2), to: file)
        },
        Corruption(name: "another application's database", engine: "sqlite") { _, sandbox, file in
            _ = try sqlite3(sandbox.path(file), "CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT)")
        },
        Corruption(name: "a posts table with other columns", engine: "sqlite") { _, sandbox, file in
            _ = try sqlite3(
                sandbox.path(file),
                "CREATE TABLE posts (slug TEXT PRIMARY KEY, html TEXT); INSERT INTO posts VALUES ('a', '<p>')"
            )
        },
        Corruption(name: "truncated to half", engine: "json") { store, sandbox, file in
            try sandbox.write(store.prefix(store.count / 2), to: file)
        },
        Corruption(name: "zero-filled", engine: "json") { store, sandbox, file in
            try sandbox.write(Data(count: store.count), to: file)
        },
        Corruption(name: "random bytes", engine: "json") { store, sandbox, file in
            try sandbox.write(randomBytes(store.count, seed: 3), to: file)
        },
        Corruption(name: "a valid envelope, a post's title a number", engine: "json") { store, sandbox, file in
            try sandbox.write(replacing(#""title": "#, with: #""title": 7, "x": "#, in: store), to: file)
        },
        Corruption(name: "a valid envelope, an id twice", engine: "json") { store, sandbox, file in
            try sandbox.write(replacing(#""id": 2,"#, with: #""id": 1,"#, in: store), to: file)
        },
        Corruption(name: "a valid envelope, posts an object", engine: "json") { _, sandbox, file in
            let document = #"{"format": "poststore-json", "formatVersion": 1, "syncStates": [], "posts": {"1": {}}}"#
            try sandbox.write(Data(document.utf8), to: file)
        },
        Corruption(name: "nested 100,000 levels deep", engine: "json") { _, sandbox, file in
            let document =
                #"{"format": "poststore-json", "formatVersion": 1, "posts": "#
                + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000) + "}"
            try sandbox.write(Data(document.utf8), to: file)
        },
    ]

    /// Every command that opens a store, with `S` standing for the damaged store.
    static let commands: [[String]] = [
        ["query", "--store", "S"],
        ["query", "--store", "S", "--search", "dolor", "--count"],
        ["info", "--store", "S"],
        ["migrate", "--store", "S"],
        ["migrate", "--store", "S", "--status"],
        ["sync", "--from", "posts.json", "--store", "S"],
        ["sync", "--from", "posts.json", "--store", "S", "--dry-run"],
        ["sync", "--from", "posts.json", "--store", "S", "--prune", "--force"],
        ["copy", "--from-store", "S", "--to-store", "json:copy.json"],
        ["copy", "--from-store", "good.sqlite", "--to-store", "S"],
    ]

    @Test(arguments: corruptions)
    func everyCommandRefusesADamagedStoreAndWritesNothing(_ corruption: Corruption) async throws {
        let sandbox = try Sandbox()
        let seeded = corruption.engine == "sqlite" ? "good.sqlite" : "json:good.json"
        try await sandbox.seed(SamplePosts.make(count: 100), into: seeded)
        try await sandbox.seed(SamplePosts.make(count: 100), into: "good.sqlite")
        let store = try #require(sandbox.contents(of: corruption.engine == "sqlite" ? "good.sqlite" : "good.json"))
        try corruption.damage(store, sandbox, corruption.file)
        try sandbox.write(SamplePosts.make(count: 5), to: "posts.json")
        let before = try sandbox.snapshot()

        for command in Self.commands {
            let arguments = command.map { $0 == "S" ? corruption.store : $0 }
            let result = try await sandbox.run(arguments)

            #expect(result.exitCode == 74, "\(result)")
            #expect(result.errorLines.count == 1, "\(result)")
            #expect(result.errorOutput.hasPrefix("poststore: "), "\(result)")
            #expect(result.errorOutput.contains(corruption.file), "\(result)")
            #expect(result.standardOutput.isEmpty, "\(result)")
            let after = try sandbox.snapshot()
            let changed = Set(before.keys).union(after.keys).filter { before[$0] != after[$0] }.sorted()
            #expect(changed.isEmpty, "\(arguments.joined(separator: " ")) changed \(changed)")
        }
    }

    @Test(arguments: [["query", "--store", "S"], ["info", "--store", "S"], ["migrate", "--store", "S"]])
    func anEmptySQLiteFileIsNoStoreForReadingCommands(_ command: [String]) async throws {
        // SQLite reads an empty file as an empty database; a first sync killed before its first commit leaves one.
        let sandbox = try Sandbox()
        try sandbox.write(Data(), to: "empty.sqlite")

        let result = try await sandbox.run(command.map { $0 == "S" ? "empty.sqlite" : $0 })

        #expect(result.exitCode == 66, "\(result)")
        #expect(result.errorLines.count == 1, "\(result)")
        #expect(result.errorOutput.contains("the file is empty"), "\(result)")
        #expect(sandbox.contents(of: "empty.sqlite") == Data(), "a reading command wrote into the file")
        #expect(!sandbox.exists("empty.sqlite-wal"))
    }

    @Test func aFirstSyncIsRefusedWhereADeletedStoresLogIsLeft() async throws {
        let sandbox = try Sandbox()
        try sandbox.write(SamplePosts.make(count: 3), to: "posts.json")
        // What a store deleted while a server had it open leaves: its log, with writes not yet folded in.
        let log = Self.randomBytes(4096, seed: 7)
        try sandbox.write(log, to: "posts.sqlite-wal")

        let result = try await sandbox.run(["sync", "--from", "posts.json", "--store", "posts.sqlite"])

        #expect(result.exitCode == 74, "\(result)")
        #expect(result.errorLines.count == 1, "\(result)")
        #expect(result.errorOutput.contains("posts.sqlite-wal is left from a SQLite store"), "\(result)")
        #expect(!sandbox.exists("posts.sqlite"))
        #expect(sandbox.contents(of: "posts.sqlite-wal") == log)
    }

    @Test func aSyncFillsAnEmptySQLiteFile() async throws {
        let sandbox = try Sandbox()
        try sandbox.write(Data(), to: "empty.sqlite")

        try await sandbox.seed(SamplePosts.make(count: 3), into: "empty.sqlite")

        #expect(try await sandbox.posts(in: "empty.sqlite") == SamplePosts.make(count: 3))
    }

    private static func randomBytes(_ count: Int, seed: UInt64) -> Data {
        var state = seed
        return Data(
            (0..<count).map { _ in
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return UInt8(truncatingIfNeeded: state >> 56)
            }
        )
    }

    /// `data` with the first occurrence of `target` replaced.
    private static func replacing(_ target: String, with replacement: String, in data: Data) throws -> Data {
        let text = String(decoding: data, as: UTF8.self)
        let range = try #require(text.range(of: target))
        return Data(text.replacingCharacters(in: range, with: replacement).utf8)
    }
}
