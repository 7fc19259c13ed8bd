import Foundation
import PostStore
import PostStoreEngines
import PostStoreHTTP
import PostStoreJSONFile
import PostStoreLive
import PostStorePostgres
import PostStoreSQLite
import PostStoreTestSupport
import Testing

/// The composition root's engine table (`StoreEngine.all`) and what is read through it, as a library caller sees
/// them: `StoreSpec(parsing:)`, `PostStoreConfiguration.Source(parsing:pageSize:)` and the SQLite engine's
/// migration status. The `poststore` tool's options over the same parsers are `ParsingTests`, in PostStoreCLITests.
@Suite struct StoreEngineTableTests {
    @Test func theTableListsEveryEngineInHelpOrder() {
        #expect(StoreEngine.all.map(\.scheme) == ["sqlite", "json", "postgres", "memory"])
        #expect(StoreEngine.all == [.sqlite, .json, .postgres, .memory])
    }

    /// A scheme or an extension named twice would make a spec's engine depend on the table's order.
    @Test func everySchemeAndEveryExtensionNamesOneEngine() {
        let schemes = StoreEngine.all.flatMap { [$0.scheme] + $0.schemeAliases }
        let extensions = StoreEngine.all.flatMap(\.fileExtensions)
        #expect(Set(schemes).count == schemes.count, "\(schemes)")
        #expect(Set(extensions).count == extensions.count, "\(extensions)")
        for engine in StoreEngine.all {
            #expect(engine.scheme == engine.scheme.lowercased() && !engine.scheme.isEmpty, "\(engine)")
            for fileExtension in engine.fileExtensions {
                #expect(fileExtension == fileExtension.lowercased() && !fileExtension.contains("."), "\(engine)")
            }
            #expect(engine.storesInFile == !engine.fileExtensions.isEmpty, "\(engine)")
        }
    }

    @Test func helpListsEverySpellingFromTheTable() {
        #expect(StoreSpec.spellings == "sqlite:PATH, json:PATH, postgres://HOST/DB or memory:")
        #expect(StoreSpec.fileExtensions == ".sqlite, .sqlite3, .db or .json")
    }

    @Test(arguments: [
        ("sqlite:a/b.db", StoreSpec(.sqlite, path: "a/b.db")),
        ("SQLite:x", StoreSpec(.sqlite, path: "x")),
        ("json:posts.json", StoreSpec(.json, path: "posts.json")),
        ("JSON:weird.sqlite", StoreSpec(.json, path: "weird.sqlite")),
        ("memory:", StoreSpec(.memory)),
        ("MEMORY:", StoreSpec(.memory)),
        ("posts.sqlite", StoreSpec(.sqlite, path: "posts.sqlite")),
        ("dir/posts.SQLITE3", StoreSpec(.sqlite, path: "dir/posts.SQLITE3")),
        ("/tmp/a.Db", StoreSpec(.sqlite, path: "/tmp/a.Db")),
        ("posts.JSON", StoreSpec(.json, path: "posts.JSON")),
        ("./c:d/posts.json", StoreSpec(.json, path: "./c:d/posts.json")),
        // A combining mark after the `:` or the `/` joins it into a larger `Character`, not into another byte.
        ("sqlite:\u{301}x.db", StoreSpec(.sqlite, path: "\u{301}x.db")),
        ("JSON:\u{301}x", StoreSpec(.json, path: "\u{301}x")),
        ("a/\u{301}b:c.json", StoreSpec(.json, path: "a/\u{301}b:c.json")),
        ("postgres://app:secret@db:5433/shop", StoreSpec(.postgres, url: "postgres://app:secret@db:5433/shop")),
        ("PostgreSQL://db/shop?schema=s", StoreSpec(.postgres, url: "PostgreSQL://db/shop?schema=s")),
    ])
    func storeSpecsParseThroughTheTable(text: String, spec: StoreSpec) throws {
        let parsed = try StoreSpec(parsing: text)
        #expect(parsed == spec)
        #expect(parsed.description.utf8.elementsEqual(spec.description.utf8), "byte for byte")
    }

    @Test(arguments: [
        ("ftp:x", "Unknown store scheme \"ftp:\""),
        ("sqlite:", "has no path"),
        ("json:", "has no path"),
        ("memory:x", "memory: takes no path"),
        ("postgres:shop", "write postgres://HOST/DATABASE"),
        ("", "The store spec is empty."),
        ("dir/", "ends with a slash"),
        ("sqlite:x.db/", "ends with a slash"),
        ("posts.txt", "Cannot tell the engine"),
        ("posts", "Cannot tell the engine"),
        (".json", "Cannot tell the engine"),
    ])
    func badStoreSpecsAreInvalidArguments(text: String, message: String) {
        let error = #expect(throws: PostStoreError.self) { try StoreSpec(parsing: text) }
        #expect(error?.code == .invalidArgument)
        #expect(error?.message.contains(message) == true, "\(error?.message ?? "")")
    }

    @Test func aServerStoreIsShownWithoutItsPassword() throws {
        let spec = try StoreSpec(parsing: "postgres://app:secret@db:5433/shop?schema=posts&password=other")
        #expect(spec.description == "postgres://app@db:5433/shop?schema=posts")
        #expect(spec.displayLocation == spec.description)
        #expect(spec.path == nil)
        let bad = #expect(throws: PostStoreError.self) { try StoreSpec(parsing: "postgres:app:secret@db") }
        #expect(bad?.message.contains("secret") == false, "\(bad?.message ?? "")")
    }

    @Test func anUnknownSpecListsWhatTheTableAccepts() {
        let unknownScheme = #expect(throws: PostStoreError.self) { try StoreSpec(parsing: "ftp:x") }
        #expect(unknownScheme?.message.hasSuffix("use sqlite:PATH, json:PATH, postgres://HOST/DB or memory:.") == true)
        let unknownExtension = #expect(throws: PostStoreError.self) { try StoreSpec(parsing: "posts.txt") }
        #expect(
            unknownExtension?.message.hasSuffix(
                "use a path ending in .sqlite, .sqlite3, .db or .json, or write sqlite:PATH or json:PATH."
            ) == true,
            "\(unknownExtension?.message ?? "")"
        )
    }

    @Test func sourcesParse() throws {
        let url = try #require(URL(string: "https://example.com/posts?x=1"))
        #expect(try PostStoreConfiguration.Source(parsing: url.absoluteString) == .http(url))
        #expect(try PostStoreConfiguration.Source(parsing: url.absoluteString, pageSize: 5) == .http(url, pageSize: 5))
        let upper = try PostStoreConfiguration.Source(parsing: "HTTP://example.com/posts")
        #expect(!upper.isFile && upper.description == "HTTP://example.com/posts")
        #expect(try PostStoreConfiguration.Source(parsing: "Samples/posts.json") == .file(path: "Samples/posts.json"))
        #expect(try PostStoreConfiguration.Source(parsing: "-") == .file(path: "-"))
        #expect(try PostStoreConfiguration.Source(parsing: "-").isFile)
    }

    @Test(
        arguments: [
            ("ftp://x/posts", nil, "Unsupported source"),
            ("http://", nil, "is not a valid URL"),
            ("https://me:secret@example.com/posts", nil, "user name or password"),
            ("in.json", 5, "A page size applies to an http(s) source only"),
        ] as [(String, Int?, String)]
    )
    func badSourcesAreInvalidArguments(text: String, pageSize: Int?, message: String) {
        let error = #expect(throws: PostStoreError.self) {
            try PostStoreConfiguration.Source(parsing: text, pageSize: pageSize)
        }
        #expect(error?.code == .invalidArgument)
        #expect(error?.message.contains(message) == true, "\(error?.message ?? "")")
        #expect(error?.message.contains("secret") == false)
    }

    @Test func theSQLAndServerEnginesHaveMigrationsAndTheOthersSayWhyNot() {
        for engine in [StoreEngine.sqlite, .postgres] {
            #expect(engine.migrationStatus != nil && engine.withoutMigrationsBecause.isEmpty, "\(engine)")
        }
        for engine in [StoreEngine.json, .memory] {
            #expect(engine.migrationStatus == nil && !engine.withoutMigrationsBecause.isEmpty, "\(engine)")
        }
    }

    @Test func theSQLiteEngineReadsAnOpenedStoresMigrationsFromTheStore() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("posts.sqlite")
        let migrationStatus = try #require(StoreEngine.sqlite.migrationStatus)
        await #expect(throws: PostStoreError.self) { try await migrationStatus(path) }

        _ = try SQLitePostStore(path: path)
        let status = try await migrationStatus(path)
        let schema = try SQLitePostStore.schemaStatus(ofStoreAt: path)

        #expect(status.pending == [])
        #expect(status.applied == schema.applied.map(\.name))
        #expect(status.applied.first == "0001_create_posts.sql")
        #expect(status.version == schema.version && status.version == status.applied.count)
    }
}
