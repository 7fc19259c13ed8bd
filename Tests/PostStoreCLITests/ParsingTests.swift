import ArgumentParser
import Foundation
import PostStore
import PostStoreHTTP
import PostStoreJSONFile
import PostStoreLive
import PostStorePostgres
import PostStoreSQLite
import Testing

@testable import PostStoreCLI

/// How arguments parse, without running the binary: store specs, sources, and options argument-parser could
/// misread.
@Suite struct ParsingTests {
    /// The option is `StoreSpec(parsing:)`, which `StoreEngineTableTests` covers spelling by spelling.
    @Test(arguments: [
        ("posts.sqlite", StoreSpec(.sqlite, path: "posts.sqlite")),
        ("postgres://db/shop", StoreSpec(.postgres, url: "postgres://db/shop")),
    ])
    func storeSpecsParse(text: String, spec: StoreSpec) throws {
        let parsed = try StoreSpec(option: text)
        #expect(parsed == spec)
        #expect(parsed.description.utf8.elementsEqual(spec.description.utf8), "byte for byte")
    }

    @Test(arguments: ["posts.txt", "posts", "ftp:x", "sqlite:", "json:", "memory:x", ""])
    func badStoreSpecsAreUsageErrors(text: String) {
        #expect(throws: ValidationError.self) { try StoreSpec(option: text) }
    }

    /// What a spec is not comes before what its extension says: a folder, nothing at all.
    @Test(arguments: [
        ("dir/", "ends with a slash"), ("x.db/", "ends with a slash"), ("", "The store spec is empty."),
        ("posts.txt", "Cannot tell the engine"),
    ])
    func aBadStoreSpecSaysWhatIsWrongWithIt(text: String, message: String) {
        let error = #expect(throws: ValidationError.self) { try StoreSpec(option: text) }
        #expect(error?.message.contains(message) == true, "\(error?.message ?? "")")
    }

    @Test func aBadStoreInTheEnvironmentIsNamedAsComingFromThere() {
        let error = #expect(throws: ValidationError.self) {
            try StoreSpec.resolve(nil, environment: ["POSTSTORE_STORE": "foo.txt"])
        }
        #expect(error?.message.hasPrefix("$POSTSTORE_STORE: Cannot tell the engine") == true)
    }

    @Test func aSourceURLWithCredentialsIsAUsageErrorThatDoesNotRepeatThePassword() {
        let error = #expect(throws: ValidationError.self) {
            try PostStoreConfiguration.Source.resolve(
                "http://me:secret@127.0.0.1:9/posts",
                pageSize: nil,
                environment: [:]
            )
        }
        #expect(error?.message.contains("user name or password") == true)
        #expect(error?.message.contains("secret") == false)
    }

    @Test func theStoreComesFromTheOptionThenTheEnvironmentThenTheDataHome() throws {
        let environment = ["POSTSTORE_STORE": "json:env.json", "XDG_DATA_HOME": "/data", "HOME": "/home/me"]
        #expect(try StoreSpec.resolve("a.sqlite", environment: environment) == StoreSpec(.sqlite, path: "a.sqlite"))
        #expect(try StoreSpec.resolve(nil, environment: environment) == StoreSpec(.json, path: "env.json"))
        #expect(
            try StoreSpec.resolve(nil, environment: ["XDG_DATA_HOME": "/data"])
                == StoreSpec(.sqlite, path: "/data/poststore/posts.sqlite")
        )
        #expect(
            try StoreSpec.resolve(nil, environment: ["POSTSTORE_STORE": "", "HOME": "/home/me"])
                == StoreSpec(.sqlite, path: "/home/me/.local/share/poststore/posts.sqlite")
        )
    }

    @Test func sourcesParse() throws {
        #expect(
            try PostStoreConfiguration.Source.resolve(nil, pageSize: nil, environment: [:])
                == .http(HTTPPostDataService.defaultURL)
        )
        #expect(try PostStoreConfiguration.Source.resolve("-", pageSize: nil, environment: [:]) == .file(path: "-"))
        #expect(
            try PostStoreConfiguration.Source.resolve(nil, pageSize: nil, environment: ["POSTSTORE_SOURCE": "in.json"])
                == .file(path: "in.json")
        )
        let url = URL(string: "https://example.com/posts?x=1")!
        #expect(
            try PostStoreConfiguration.Source.resolve(url.absoluteString, pageSize: 5, environment: [:])
                == .http(url, pageSize: 5)
        )
        #expect(throws: ValidationError.self) {
            try PostStoreConfiguration.Source.resolve("ftp://x/posts", pageSize: nil, environment: [:])
        }
        #expect(throws: ValidationError.self) {
            try PostStoreConfiguration.Source.resolve("in.json", pageSize: 5, environment: [:])
        }
    }

    /// A combining mark after a scheme's colon, or after a slash before it: the bytes decide.
    @Test func aCombiningMarkAfterTheSchemeLeavesItAScheme() {
        #expect(throws: ValidationError.self) {
            try PostStoreConfiguration.Source.resolve("ftp:\u{301}x", pageSize: nil, environment: [:])
        }
        #expect("ftp:\u{301}x".scheme.map(String.init) == "ftp")
        #expect("a/\u{301}b:c".scheme == nil)
    }

    @Test(arguments: [["--sort", "-id"], ["--sort=-id"]])
    func aDescendingSortParsesWrittenEitherWay(arguments: [String]) throws {
        let command = try PostStoreCommand.parseAsRoot(["query"] + arguments)
        let query = try #require(command as? QueryCommand)
        #expect(query.sort == .descendingId)
    }

    @Test func negativeNumbersReachValidation() throws {
        let error = try #require(throws: (any Error).self) {
            try PostStoreCommand.parseAsRoot(["query", "--limit", "-1"])
        }
        #expect(PostStoreCommand.message(for: error).contains("--limit must be 0 or more (got -1)"))
    }

    @Test func syncOptionsParse() throws {
        let command = try PostStoreCommand.parseAsRoot(
            [
                "sync", "--from", "-", "--prune", "--force", "--dry-run", "--retries", "0", "--timeout", "1.5",
                "--format", "json",
            ]
        )
        let sync = try #require(command as? SyncCommand)
        #expect(
            (sync.from, sync.prune, sync.force, sync.dryRun, sync.retries, sync.timeout) == (
                "-", true, true, true, 0, 1.5
            )
        )
        #expect(sync.format == .json)
        #expect(throws: (any Error).self) { try PostStoreCommand.parseAsRoot(["sync", "--force"]) }
    }
}
