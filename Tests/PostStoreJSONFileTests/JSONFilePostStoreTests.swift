import Foundation
@_spi(FileSystem) import PostStore
import PostStoreEngines
import PostStoreJSONFile
import PostStoreTestSupport
import PostStoreTesting
import Testing

@Suite("JSON-file store")
struct JSONFilePostStoreTests {
    @Test(
        "an injected failure at any step of the atomic write leaves the previous file intact",
        arguments: FailingFileSystem.Step.allCases.filter { ![.readWithForeignError, .readOnlyFile].contains($0) }
    )
    func failedWriteLeavesPreviousFile(step: FailingFileSystem.Step) async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("posts.json")
        let fileSystem = FailingFileSystem()
        let store = try Self.store(at: path, on: fileSystem)
        _ = try await store.upsert(SamplePosts.make(count: 10))
        let before = try Data(contentsOf: URL(fileURLWithPath: path))

        fileSystem.fail(step)
        let error = await #expect(throws: PostStoreError.self) {
            try await store.upsert(SamplePosts.make(count: 5, firstId: 100))
        }
        fileSystem.fail(nil)
        #expect(error?.code == .ioFailure)

        if step == .synchronizeDirectory {
            // The rename happened; only its flush failed, and the error says so. The file holds the new document.
            #expect(error?.message.contains("was written, but flushing its folder") == true)
            #expect(try await JSONFilePostStore(path: path, mode: .openExisting).count() == 15)
            #expect(try await store.count() == 15)
        } else {
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
            #expect(try await JSONFilePostStore(path: path, mode: .openExisting).count() == 10)
        }
        #expect(try directory.entries() == ["posts.json", "posts.json.lock"], "no temporary file is left behind")
    }

    @Test("an injected file system's own errors reach the caller as a PostStoreError")
    func foreignErrorsAreWrapped() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("posts.json")
        let fileSystem = FailingFileSystem()
        let store = try Self.store(at: path, on: fileSystem)
        try await store.upsert(SamplePosts.make(count: 1))
        fileSystem.fail(.readWithForeignError)
        let error = await #expect(throws: PostStoreError.self) { try await store.upsert(SamplePosts.make(count: 2)) }
        #expect(error?.code == .ioFailure)
        #expect(error?.message.contains(path) == true)
    }

    @Test("temporary files left by a crashed writer are removed by the next write")
    func staleTemporaryFilesAreRemoved() async throws {
        let directory = try TemporaryDirectory()
        let store = try JSONFilePostStore(path: directory.file("posts.json"))
        try Data("half a document".utf8).write(to: URL(fileURLWithPath: directory.file(".posts.json.tmp-crashed")))
        try Data("unrelated".utf8).write(to: URL(fileURLWithPath: directory.file(".other.json.tmp-keep")))
        _ = try await store.upsert(SamplePosts.make(count: 1))
        #expect(try directory.entries() == [".other.json.tmp-keep", "posts.json", "posts.json.lock"])
    }

    @Test("the file is human-readable JSON with posts in id order and JSONPlaceholder's key order")
    func documentFormat() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("posts.json")
        let store = try JSONFilePostStore(path: path)
        _ = try await store.upsert([
            Post(userId: 2, id: 10, title: "quote \" slash / nul \u{0} é", body: "line\nbreak"),
            Post(userId: 1, id: 2, title: "t", body: "b"),
        ])
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.hasPrefix("{\n  \"format\": \"poststore-json\",\n  \"formatVersion\": 2,\n  \"changes\": {\n"))
        #expect(
            text.contains(
                """
                    {
                      "userId": 1,
                      "id": 2,
                      "title": "t",
                      "body": "b"
                    },
                """
            )
        )
        #expect(text.contains(#""title": "quote \" slash / nul \u0000 é""#))
        #expect(text.contains(#""body": "line\nbreak""#))
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        #expect((object?["posts"] as? [[String: Any]])?.map { $0["id"] as? Int } == [2, 10])
    }

    /// A store in a file an older build wrote: format version 1, one post (id 7), no change history.
    private static func versionOneStore(at path: String) throws -> JSONFilePostStore {
        let document =
            #"{"format": "poststore-json", "formatVersion": 1, "posts": [{"userId": 1, "id": 7, "title": "", "body": ""}]}"#
        try Data(document.utf8).write(to: URL(fileURLWithPath: path))
        return try JSONFilePostStore(path: path, mode: .openExisting)
    }

    /// `poststore info` shows the version the file records, read with its count and sync states: an older build's
    /// version 1 until this build writes the file (a newer version is refused, see `corruptFilesAreRefused`).
    @Test("the format version is the file's own, read with the count and sync states")
    func formatVersionIsTheFilesOwn() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("posts.json")
        let store = try Self.versionOneStore(at: path)

        let description = try await store.describe()

        #expect(description == StoreDescription(count: 1, syncStates: [], formatVersion: 1))
    }

    @Test("a version 1 file opens with a token of its posts, answered until a write moves it to version 2")
    func versionOneFilesJoinTheFeed() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("posts.json")
        let store = try Self.versionOneStore(at: path)
        let before = try await store.changes(since: nil)
        #expect(before.posts.map(\.id) == [7])
        #expect(try await JSONFilePostStore(path: path).changeToken() == before.next, "every process agrees")
        #expect(try await store.changes(since: before.next).count == 0)

        try await store.upsert(SamplePosts.make(count: 1))
        #expect(try await store.describe().formatVersion == 2)
        let after = try await JSONFilePostStore(path: path).changes(since: before.next)
        #expect(after.posts == SamplePosts.make(count: 1) && after.deletedIds.isEmpty)
    }

    @Test("a file edited by hand drops its history: earlier tokens must refetch, and the edit is in the next full read")
    func handEditsDropTheHistory() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("posts.json")
        let store = try JSONFilePostStore(path: path)
        try await store.upsert(SamplePosts.make(count: 2))
        let token = try await store.changeToken()
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let title = SamplePosts.make(count: 1)[0].title
        try Data(text.replacing(title, with: "Edited by hand").utf8).write(to: URL(fileURLWithPath: path))

        await #expect {
            _ = try await store.changes(since: token)
        } throws: { ($0 as? PostStoreError)?.code == .mustRefetch }
        let now = try await store.changes(since: nil)
        #expect(now.posts.first?.title == "Edited by hand")
        let other = try await JSONFilePostStore(path: path).changeToken()
        #expect(other == now.next, "every process agrees")
        try await store.upsert(SamplePosts.make(count: 1, firstId: 3))
        #expect(try await store.changes(since: now.next).posts.map(\.id) == [3])
    }

    @Test("a file larger than one read is read back whole, its posts searched and paged through the index")
    func aLargeFileReadsBackWhole() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("posts.json")
        let posts = (1...6000).map { id in
            Post(
                userId: id % 7,
                id: id,
                title: "Title \(id) İ",
                body: String(repeating: "lorem ipsum \(id) ", count: 12)
            )
        }
        _ = try await JSONFilePostStore(path: path).upsert(posts)
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0 > 1 << 20)

        let store = try JSONFilePostStore(path: path, mode: .openExisting)
        #expect(try await store.query(PostQuery()) == posts)
        #expect(try await store.query(PostQuery(userIds: [3], limit: 2)).map(\.id) == [3, 10])
        #expect(try await store.query(PostQuery(search: "TITLE 5999 i\u{307}")).map(\.id) == [5999])
        let page = try await store.readPage(PostQuery(search: "ipsum 4321", limit: 3))
        #expect(page.posts.map(\.id) == [4321] && page.total == 1)
    }

    @Test("a write that changes nothing does not rewrite the file")
    func unchangedWriteSkipsTheFile() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("posts.json")
        let store = try JSONFilePostStore(path: path)
        _ = try await store.upsert(SamplePosts.make(count: 3))
        let identity = try localFileSystem.identityOfFile(atPath: path)
        #expect(try await store.upsert(SamplePosts.make(count: 3)) == WriteSummary(unchanged: 3))
        #expect(try await store.delete(ids: [99]) == 0)
        #expect(try localFileSystem.identityOfFile(atPath: path) == identity)
    }

    @Test("a missing folder is an I/O failure naming the path")
    func missingFolder() throws {
        let directory = try TemporaryDirectory()
        let error = #expect(throws: PostStoreError.self) {
            try JSONFilePostStore(path: directory.file("no/such/folder/posts.json"))
        }
        #expect(error?.code == .ioFailure)
        #expect(error?.message.contains("no/such/folder") == true)
    }

    static let corruptFiles: [(name: String, contents: String, code: PostStoreError.Code, mentions: String)] = [
        ("empty file", "", .corruptStore, "empty"),
        ("not JSON", "{ this is not json", .corruptStore, "not valid JSON"),
        ("a bare array", "[]", .corruptStore, "must be an object, found an array"),
        ("another JSON document", #"{"name": "package.json"}"#, .corruptStore, "format"),
        ("newer format", #"{"format": "poststore-json", "formatVersion": 3, "posts": []}"#, .unsupportedVersion, "3"),
        (
            "a post with a wrong type",
            #"{"format": "poststore-json", "formatVersion": 1, "posts": [{"userId": 1, "id": 7, "title": 5, "body": ""}]}"#,
            .corruptStore, #"The post at index 0 (id 7): field "title" must be a string"#
        ),
        (
            "a post missing a field",
            #"{"format": "poststore-json", "formatVersion": 1, "posts": [{"userId": 1, "id": 1, "title": "", "body": ""}, {"userId": 1, "id": 2, "title": ""}]}"#,
            .corruptStore, #"index 1 (id 2): field "body" is missing"#
        ),
        (
            "a repeated id",
            #"{"format": "poststore-json", "formatVersion": 1, "posts": [{"userId": 1, "id": 3, "title": "", "body": ""}, {"userId": 1, "id": 3, "title": "", "body": ""}]}"#,
            .corruptStore, "repeats id 3"
        ),
        (
            "format version 0", #"{"format": "poststore-json", "formatVersion": 0, "posts": []}"#, .corruptStore,
            "1 or more"
        ),
        (
            "a bad sync state",
            #"{"format": "poststore-json", "formatVersion": 1, "posts": [], "syncStates": [{"source": 1}]}"#,
            .corruptStore, #"The sync state at index 0: field "source" must be a string"#
        ),
        (
            "a repeated sync source",
            #"{"format": "poststore-json", "formatVersion": 1, "posts": [], "syncStates": [{"source": "s", "syncedAtMilliseconds": 1, "fetched": 0, "inserted": 0, "updated": 0, "unchanged": 0, "deleted": 0}, {"source": "s", "syncedAtMilliseconds": 2, "fetched": 0, "inserted": 0, "updated": 0, "unchanged": 0, "deleted": 0}]}"#,
            .corruptStore, #"repeats the source "s""#
        ),
        (
            "a sync time that is not a number",
            #"{"format": "poststore-json", "formatVersion": 1, "posts": [], "syncStates": [{"source": "s", "syncedAtMilliseconds": "x", "fetched": 0, "inserted": 0, "updated": 0, "unchanged": 0, "deleted": 0}]}"#,
            .corruptStore, #"field "syncedAtMilliseconds" must be an integer"#
        ),
        (
            "a version 2 file without its change history",
            #"{"format": "poststore-json", "formatVersion": 2, "posts": []}"#, .corruptStore, #"no "changes""#
        ),
        (
            "a change history that disagrees with the posts",
            #"{"format": "poststore-json", "formatVersion": 2, "changes": {"storeId": "ab", "revision": 1, "floor": 0, "historyLimit": 10, "postsDigest": "ccbf29ce484222325", "postRevisions": [], "tombstones": [[1, 5]], "writes": []}, "posts": []}"#,
            .corruptStore, "disagree"
        ),
        ("invalid UTF-8", "{\"format\": \"poststore-json\u{FFFD}", .corruptStore, "JSON"),
    ]

    @Test(
        "a damaged or foreign file is refused with a clear error and never written over",
        arguments: corruptFiles.indices
    )
    func corruptFilesAreRefused(index: Int) async throws {
        let (_, contents, code, mentions) = Self.corruptFiles[index]
        let directory = try TemporaryDirectory()
        let path = directory.file("posts.json")
        var bytes = Data(contents.utf8)
        if contents.contains("\u{FFFD}") { bytes = Data([0x7B, 0x22, 0xFF, 0xFE, 0x22]) }
        try bytes.write(to: URL(fileURLWithPath: path))

        for mode in [StoreOpenMode.createIfMissing, .openExisting] {
            let error = #expect(throws: PostStoreError.self) { try JSONFilePostStore(path: path, mode: mode) }
            #expect(error?.code == code)
            #expect(error?.message.contains(mentions) == true, "\(error?.message ?? "no error")")
            #expect(error?.message.contains(path) == true)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
    }

    @Test("a file damaged after opening is refused by the next write, which leaves it as it is")
    func fileDamagedWhileOpen() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("posts.json")
        let store = try JSONFilePostStore(path: path)
        _ = try await store.upsert(SamplePosts.make(count: 2))
        try Data("garbage".utf8).write(to: URL(fileURLWithPath: path))
        let error = await #expect(throws: PostStoreError.self) { try await store.upsert(SamplePosts.make(count: 1)) }
        #expect(error?.code == .corruptStore)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "garbage")
    }

    @Test("a store opened through a symbolic link writes the file the link points to, and keeps its permissions")
    func symbolicLinksAndPermissions() async throws {
        let directory = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory.file("real"), withIntermediateDirectories: true)
        let real = directory.file("real/posts.json")
        let link = directory.file("posts.json")
        try await JSONFilePostStore(path: real).upsert(SamplePosts.make(count: 1))
        #expect(chmod(real, 0o600) == 0)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: real)

        let store = try JSONFilePostStore(path: link)
        try await store.upsert(SamplePosts.make(count: 2, firstId: 10))
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == real, "the link is still a link")
        #expect(try await JSONFilePostStore(path: real).count() == 3)
        #expect(try localFileSystem.identityOfFile(atPath: real)?.permissions == 0o600)
        #expect(try directory.entries() == ["posts.json", "real"], "the lock file sits beside the real file")
    }

    @Test("a link to a file that does not exist yet creates the file where it points")
    func danglingLink() async throws {
        let directory = try TemporaryDirectory()
        let link = directory.file("posts.json")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "later.json")
        try await JSONFilePostStore(path: link).upsert(SamplePosts.make(count: 1))
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "later.json")
        #expect(try await JSONFilePostStore(path: directory.file("later.json"), mode: .openExisting).count() == 1)
    }

    @Test("errors name the store by the path it was opened with, not the file a link there points to")
    func errorsNameThePathGiven() async throws {
        let directory = try TemporaryDirectory()
        let link = directory.file("posts.json")
        let target = directory.file("target.json")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "target.json")
        try await JSONFilePostStore(path: link).upsert(SamplePosts.make(count: 1))
        try Data(#"{"format": "poststore-json", "formatVersion": 1, "posts": [{"id": 1,,]}"#.utf8)
            .write(to: URL(fileURLWithPath: target))

        let error = #expect(throws: PostStoreError.self) { try JSONFilePostStore(path: link, mode: .openExisting) }

        #expect(error?.code == .corruptStore)
        #expect(error?.path == link)
        #expect(
            error?.message == "The JSON store \(link) is damaged or not a PostStore file. The data is not valid JSON: "
                + "expected a field name in quotes, found ',' (byte offset 68, in the post at index 0). It was left "
                + "untouched."
        )
    }

    @Test("a read-only store file is not replaced, and an empty path is refused")
    func readOnlyFileAndEmptyPath() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("posts.json")
        let fileSystem = FailingFileSystem()
        let store = try Self.store(at: path, on: fileSystem)
        try await store.upsert(SamplePosts.make(count: 1))
        fileSystem.fail(.readOnlyFile)
        #expect(try await store.upsert(SamplePosts.make(count: 1)) == WriteSummary(unchanged: 1), "no change, no write")
        let error = await #expect(throws: PostStoreError.self) { try await store.upsert(SamplePosts.make(count: 2)) }
        #expect(error?.code == .ioFailure)
        #expect(error?.message.contains("read-only") == true)
        #expect(try await store.count() == 1)
        let empty = #expect(throws: PostStoreError.self) { try JSONFilePostStore(path: "") }
        #expect(empty?.code == .invalidArgument)
    }

    /// A JSON store at `path` on the given file system, with the system clock.
    private static func store(at path: String, on fileSystem: FailingFileSystem) throws -> JSONFilePostStore {
        try JSONFilePostStore(
            path: path,
            mode: .createIfMissing,
            lockTimeout: .seconds(30),
            fileSystem: fileSystem,
            clock: SystemClock()
        )
    }
}
