import ArgumentParser
import Foundation
import PostStore
import Testing

@testable import PostStoreCLI

/// How arguments parse, without running the binary: store specs, sources, and options argument-parser could
/// misread.
@Suite struct ParsingTests {
    @Test(arguments: [
        ("sqlite:a/b.db", StoreSpec.sqlite("a/b.db")),
        ("SQLite:x", .sqlite("x")),
        ("json:posts.json", .json("posts.json")),
        ("json:weird.sqlite", .json("weird.sqlite")),
        ("memory:", .memory),
        ("posts.sqlite", .sqlite("posts.sqlite")),
        ("dir/posts.SQLITE3", .sqlite("dir/posts.SQLITE3")),
        ("/tmp/a.db", .sqlite("/tmp/a.db")),
        ("posts.json", .json("posts.json")),
        ("./c:d/posts.json", .json("./c:d/posts.json")),
        // A combining mark after the `:` or the `/` joins it into a larger `Character`, not into another byte.
        ("sqlite:\u{301}x.db", .sqlite("\u{301}x.db")),
        ("JSON:\u{301}x", .json("\u{301}x")),
        ("a/\u{301}b:c.json", .json("a/\u{301}b:c.json")),
    ])
    func storeSpecsParse(text: String, spec: StoreSpec) throws {
        let parsed = try StoreSpec(parsing: text)
        #expect(parsed == spec)
        #expect(parsed.description.utf8.elementsEqual(spec.description.utf8), "byte for byte")
    }

    @Test(arguments: ["posts.txt", "posts", "ftp:x", "sqlite:", "json:", "memory:x", ""])
    func badStoreSpecsAreUsageErrors(text: String) {
        #expect(throws: ValidationError.self) { try StoreSpec(parsing: text) }
    }

    @Test func theStoreComesFromTheOptionThenTheEnvironmentThenTheDataHome() throws {
        let environment = ["POSTSTORE_STORE": "json:env.json", "XDG_DATA_HOME": "/data", "HOME": "/home/me"]
        #expect(try StoreSpec.resolve("a.sqlite", environment: environment) == .sqlite("a.sqlite"))
        #expect(try StoreSpec.resolve(nil, environment: environment) == .json("env.json"))
        #expect(
            try StoreSpec.resolve(nil, environment: ["XDG_DATA_HOME": "/data"])
                == .sqlite("/data/poststore/posts.sqlite")
        )
        #expect(
            try StoreSpec.resolve(nil, environment: ["POSTSTORE_STORE": "", "HOME": "/home/me"])
                == .sqlite("/home/me/.local/share/poststore/posts.sqlite")
        )
    }

    @Test func sourcesParse() throws {
        #expect(try SourceSpec.resolve(nil, pageSize: nil, environment: [:]) == .http(HTTPPostDataService.defaultURL))
        #expect(try SourceSpec.resolve("-", pageSize: nil, environment: [:]) == .file(path: "-"))
        #expect(
            try SourceSpec.resolve(nil, pageSize: nil, environment: ["POSTSTORE_SOURCE": "in.json"])
                == .file(path: "in.json")
        )
        let url = URL(string: "https://example.com/posts?x=1")!
        #expect(try SourceSpec.resolve(url.absoluteString, pageSize: 5, environment: [:]) == .http(url, pageSize: 5))
        #expect(throws: ValidationError.self) {
            try SourceSpec.resolve("ftp://x/posts", pageSize: nil, environment: [:])
        }
        #expect(throws: ValidationError.self) { try SourceSpec.resolve("in.json", pageSize: 5, environment: [:]) }
    }

    /// A combining mark after a scheme's colon, or after a slash before it: the bytes decide.
    @Test func aCombiningMarkAfterTheSchemeLeavesItAScheme() {
        #expect(throws: ValidationError.self) {
            try SourceSpec.resolve("ftp:\u{301}x", pageSize: nil, environment: [:])
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
