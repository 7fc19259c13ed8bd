import Foundation
import PostStore
import PostStoreEngines
import PostStoreTestSupport
import PostStoreTesting
import Testing

@testable import PostStoreSQLite

@Suite("SQLite store")
struct SQLitePostStoreTests {
    @Test("a file the store writes is an ordinary SQLite database the sqlite3 shell reads")
    func readableBySQLiteShell() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("posts.sqlite")
        let store = try SQLitePostStore(path: path)
        _ = try await store.upsert(SamplePosts.make(count: 25) + [Post(userId: 7, id: 99, title: "한국어 😀", body: "x")])
        #expect(try sqlite3(path, "PRAGMA integrity_check") == "ok")
        #expect(try sqlite3(path, "SELECT count(*) FROM posts") == "26")
        #expect(try sqlite3(path, "SELECT title FROM posts WHERE id = 99") == "한국어 😀")
        #expect(try sqlite3(path, "SELECT count(*) FROM posts WHERE user_id = 2") == "10")
        #expect(try sqlite3(path, "INSERT INTO posts_search (posts_search) VALUES ('integrity-check')") == "")
        #expect(try sqlite3(path, "SELECT rowid FROM posts_search WHERE posts_search MATCH '\"국어\"'") == "")
        #expect(try sqlite3(path, "SELECT rowid FROM posts_search WHERE posts_search MATCH '\"한국어\"'") == "99")
        let plan = try sqlite3(
            path,
            "EXPLAIN QUERY PLAN SELECT id FROM posts WHERE user_id IN (1, 2) ORDER BY user_id, id"
        )
        #expect(plan.contains("posts_user_id"))
    }

    static let foreignFiles: [(name: String, bytes: [UInt8])] = [
        ("random bytes", (0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 7) }),
        ("text", Array("name,age\nalice,30\n".utf8)),
        ("zero-filled", [UInt8](repeating: 0, count: 8192)),
    ]

    @Test("a file that is not a database is refused and left untouched", arguments: foreignFiles.indices)
    func notADatabase(index: Int) throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("posts.sqlite")
        let bytes = Data(Self.foreignFiles[index].bytes)
        try bytes.write(to: URL(fileURLWithPath: path))
        for mode in [StoreOpenMode.createIfMissing, .openExisting] {
            let error = #expect(throws: PostStoreError.self) { try SQLitePostStore(path: path, mode: mode) }
            #expect(error?.code == .corruptStore, "\(error.map { String(describing: $0) } ?? "")")
            #expect(error?.message.contains(path) == true)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
        #expect(try directory.entries() == ["posts.sqlite"])
    }

    @Test("a store SQLite cannot open says why in the file system's words")
    func cannotOpenSaysWhy() throws {
        let directory = try TemporaryDirectory()
        // A file where the store's folder should be: SQLite says "unable to open database file", the file system
        // "Not a directory" (a permission problem would say "Permission denied", but the tests may run as root).
        try Data("a file".utf8).write(to: URL(fileURLWithPath: directory.file("folder")))
        let path = directory.file("folder") + "/posts.sqlite"
        let error = #expect(throws: PostStoreError.self) { try SQLitePostStore(path: path, mode: .createIfMissing) }
        #expect(error?.code == .ioFailure)
        #expect(
            error?.message == "SQLite cannot open the store \(path): Not a directory.",
            "\(String(describing: error))"
        )
    }

    @Test("another application's SQLite database is refused and left untouched")
    func foreignDatabase() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("app.db")
        _ = try sqlite3(
            path,
            "CREATE TABLE posts (id INTEGER PRIMARY KEY, author TEXT); INSERT INTO posts VALUES (1, 'x')"
        )
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let error = #expect(throws: PostStoreError.self) { try SQLitePostStore(path: path) }
        #expect(error?.code == .corruptStore)
        #expect(error?.message.contains("another application") == true)
        #expect(error?.message.contains("posts") == true)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test("an empty file is no store to open, and a store to create")
    func emptyFile() async throws {
        // SQLite reads an empty file as an empty database; a first sync killed before its first commit leaves one.
        let directory = try TemporaryDirectory()
        let path = directory.file("posts.sqlite")
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))

        let error = #expect(throws: PostStoreError.self) { try SQLitePostStore(path: path, mode: .openExisting) }
        #expect(error?.code == .storeNotFound)
        #expect(error?.message.contains("the file is empty") == true)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)).isEmpty, "opening must not write a schema")

        let store = try SQLitePostStore(path: path, mode: .createIfMissing)
        #expect(try await store.count() == 0)
        #expect(try SQLitePostStore(path: path, mode: .openExisting).path == path)
    }

    @Test("search text reaches SQL only as bound values, so SQL and FTS syntax in it are plain text")
    func injection() async throws {
        let directory = try TemporaryDirectory()
        let store = try SQLitePostStore(path: directory.file("posts.sqlite"))
        _ = try await store.upsert(SamplePosts.tricky + SamplePosts.make(count: 5, firstId: 100))
        for search in ["'; DROP TABLE posts; --", "\" OR 1=1 --", "NEAR(a b)", "title:x", "*", "a AND b", "\") OR (\""]
        {
            _ = try await store.query(PostQuery(search: search))
        }
        #expect(try await store.count() == SamplePosts.tricky.count + 5)
        #expect(try await store.query(PostQuery(search: "drop table posts;--")).map(\.id) == [6])
    }

    @Test("a file of several pieces with a bad last record leaves a SQLite store byte for byte as it was")
    func badLastRecordOfALargeFile() async throws {
        let directory = try TemporaryDirectory()
        let posts = SamplePosts.make(count: 9_000)
        var payload = SamplePosts.json(posts)
        #expect(payload.count > 1 << 20, "the file must be longer than one piece (1 MiB)")
        // The last record's title becomes a number.
        payload.removeLast()
        payload.append(Data(#", {"userId": 1, "id": 999999, "title": 5, "body": ""}]"#.utf8))
        let path = directory.file("posts.json")
        try payload.write(to: URL(fileURLWithPath: path))
        let storePath = directory.file("store.sqlite")
        let store = try SQLitePostStore(path: storePath)
        try await store.upsert(SamplePosts.make(count: 3))
        let before = [storePath, storePath + "-wal"].map { FileManager.default.contents(atPath: $0) }
        let service = SyncService(dataService: FilePostDataService(path: path), store: store)
        let error = await #expect(throws: PostStoreError.self) { try await service.sync(SyncOptions(prune: true)) }
        #expect(error?.code == .invalidData)
        #expect(error?.message.contains(#"The post at index 9000 (id 999999): field "title" must be a string"#) == true)
        #expect([storePath, storePath + "-wal"].map { FileManager.default.contents(atPath: $0) } == before)
        #expect(try await store.count() == 3)
    }

    @Test func aStagedSQLiteStoreIsAnOrdinaryStoreOncePublished() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("posts.sqlite")
        let staging = try NewStoreStaging(finalPath: path, fileSystem: localFileSystem, clock: SystemClock())
        defer { staging.discard() }
        try await Self.build(staging.storePath)
        // Built without a write-ahead log: nothing beside the store but the builder's lock.
        #expect(try directory.entries().count == 1)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: staging.folder).sorted() == [
                "building.lock", "posts.sqlite",
            ]
        )
        #expect(try sqlite3(staging.storePath, "PRAGMA journal_mode") == "delete")

        try SQLitePostStore.finishStaging(at: staging.storePath)
        #expect(try staging.publish())
        staging.discard()

        #expect(try sqlite3(path, "PRAGMA journal_mode") == "wal")
        let store = try SQLitePostStore(path: path, mode: .openExisting)
        #expect(try await store.query(.all) == SamplePosts.make(count: 50))
        #expect(
            try await store.query(PostQuery(search: "dolor"))
                == SamplePosts.make(count: 50).filter { "\($0.title) \($0.body)".contains("dolor") }
        )
    }

    /// Fills a new SQLite store at `path` the way a first sync into a staging folder does.
    private static func build(_ path: String) async throws {
        let store = try SQLitePostStore(
            path: path,
            mode: .createIfMissing,
            busyTimeout: .seconds(5),
            migrator: SQLiteMigrator(),
            clock: SystemClock(),
            staged: true
        )
        try await store.apply(PostChangeSet(upserts: SamplePosts.make(count: 50)))
    }
}

@Suite("SQLite search index")
struct SQLiteSearchIndexTests {
    @Test("writes without the index mark it stale; the next store that keeps it rebuilds it before using it")
    func staleIndexIsRebuilt() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("posts.sqlite")
        let indexed = try SQLitePostStore(path: path)
        try await indexed.upsert([Post(userId: 1, id: 1, title: "alpha", body: "one")])

        let unindexed = try SQLitePostStore(path: path, searchIndex: false)
        try await unindexed.upsert([
            Post(userId: 1, id: 1, title: "gamma", body: "changed"), Post(userId: 1, id: 2, title: "beta", body: "two"),
        ])
        #expect(try sqlite3(path, "SELECT value FROM poststore_settings WHERE key = 'search_index'") == "stale")
        #expect(try await unindexed.query(PostQuery(search: "beta")).map(\.id) == [2])

        // The open store that keeps the index sees the mark and scans instead of trusting the index.
        #expect(try await indexed.query(PostQuery(search: "beta")).map(\.id) == [2])
        #expect(try await indexed.query(PostQuery(search: "alpha")) == [])
        // Its next write rebuilds the index.
        try await indexed.upsert([Post(userId: 1, id: 3, title: "delta", body: "three")])
        #expect(try sqlite3(path, "SELECT count(*) FROM poststore_settings WHERE key = 'search_index'") == "0")
        #expect(
            try sqlite3(path, "SELECT group_concat(rowid) FROM posts_search WHERE posts_search MATCH '\"amm\"'") == "1"
        )
        #expect(try sqlite3(path, "SELECT count(*) FROM posts_search WHERE posts_search MATCH '\"alp\"'") == "0")
        #expect(try sqlite3(path, "INSERT INTO posts_search (posts_search) VALUES ('integrity-check')") == "")

        try await unindexed.upsert([Post(userId: 1, id: 4, title: "epsilon", body: "four")])
        let reopened = try SQLitePostStore(path: path, mode: .openExisting)
        #expect(
            try sqlite3(path, "SELECT count(*) FROM poststore_settings WHERE key = 'search_index'") == "0",
            "opening rebuilt it"
        )
        #expect(try await reopened.query(PostQuery(search: "silo")).map(\.id) == [4])
    }

    @Test("a bulk load leaves the index in one segment, owing no merge, with FTS5's automatic merging back on")
    func bulkLoadLeavesOneSegment() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("posts.sqlite")
        // About 6 MB of distinct text: FTS5 writes its pending rows to several segments on the way.
        let posts = (1...3000).map { id in
            Post(
                userId: 1,
                id: id,
                title: "title \(id)",
                body: (0..<200).map { "w\(id * 7 + $0)" }.joined(separator: " ")
            )
        }
        let store = try SQLitePostStore(path: path)
        try await store.upsert(posts)
        #expect(try sqlite3(path, "SELECT count(DISTINCT segid) FROM posts_search_idx") == "1")
        #expect(try sqlite3(path, "SELECT v FROM posts_search_config WHERE k = 'automerge'") == "4")
        #expect(try await store.query(PostQuery(search: "w21199")).map(\.id) == [3000])
        // The next write makes a segment of its own, as any write does.
        try await store.upsert([Post(userId: 1, id: 1, title: "changed", body: "one")])
        #expect(try sqlite3(path, "SELECT count(DISTINCT segid) FROM posts_search_idx") == "2")
    }

    @Test("the index is rebuilt with NUL characters and Unicode exactly as incremental writes index them")
    func rebuildMatchesIncrementalIndexing() async throws {
        let directory = try TemporaryDirectory()
        let incremental = directory.file("incremental.sqlite")
        let rebuilt = directory.file("rebuilt.sqlite")
        try await SQLitePostStore(path: incremental).upsert(SamplePosts.tricky)
        try await SQLitePostStore(path: rebuilt, searchIndex: false).upsert(SamplePosts.tricky)
        let store = try SQLitePostStore(path: rebuilt, mode: .openExisting)
        // Deleting every post through the index fails if the rebuilt rows differ from what removal computes.
        try await store.delete(ids: Set(SamplePosts.tricky.map(\.id)))
        #expect(try sqlite3(rebuilt, "INSERT INTO posts_search (posts_search) VALUES ('integrity-check')") == "")
        let query = "SELECT count(*) FROM posts_search WHERE posts_search MATCH '\"moj\"'"
        #expect(try sqlite3(rebuilt, query) == "0")
        #expect(try sqlite3(incremental, query) == "1")
    }
}

@Suite("SQLite query planning")
struct SQLiteQueryPlanTests {
    @Test("search terms narrow by their trigrams, quoted for FTS5; short and NUL terms do not narrow")
    func matchExpressions() {
        #expect(SQLiteSearchIndex.matchExpression(for: ["abcd"]) == #""abc" "bcd""#)
        #expect(SQLiteSearchIndex.matchExpression(for: ["a\"b"]) == #""a""b""#)
        #expect(SQLiteSearchIndex.matchExpression(for: ["\"\u{301}ab"]) == "\"\"\"\u{301}a\" \"\u{301}ab\"")
        #expect(SQLiteSearchIndex.matchExpression(for: ["ab", "x\u{0}yz"]) == nil)
        #expect(SQLiteSearchIndex.matchExpression(for: ["😀😀😀", "ab"]) == "\"😀😀😀\"")
        #expect(SQLiteSearchIndex.matchExpression(for: []) == nil)
    }

    @Test("values are bound, never spliced: the SQL depends only on the query's shape")
    func sqlDependsOnShapeOnly() {
        let first = SQLiteQueryPlan(
            PostQuery(ids: [1, 7], search: "'; DROP", limit: 3),
            usingSearchIndex: true
        )
        let second = SQLiteQueryPlan(PostQuery(ids: [2, 3], search: "hello world", limit: 9), usingSearchIndex: true)
        #expect(!first.sql.contains("DROP"))
        #expect(first.sql.components(separatedBy: "poststore_matches").count == 2)
        #expect(second.sql == first.sql)
        // One id or user is compared as it is, bound too.
        let one = SQLiteQueryPlan(PostQuery(ids: [12_345], userIds: [678]), usingSearchIndex: true)
        #expect(one.sql.contains("posts.id = ?") && one.sql.contains("posts.user_id = ?"))
        #expect(!one.sql.contains("12345") && !one.sql.contains("678"))
        #expect(one.sql == SQLiteQueryPlan(PostQuery(ids: [1], userIds: [2]), usingSearchIndex: true).sql)
        let many = SQLiteQueryPlan(
            PostQuery(search: (0..<1500).map { "t\($0)" }.joined(separator: " ")),
            usingSearchIndex: true
        )
        #expect(many.sql == SQLiteQueryPlan(PostQuery(search: "xyz abc"), usingSearchIndex: true).sql)
    }
}

@Suite("SQLite store against the outside world")
struct SQLiteOutsideWorldTests {
    @Test("a new store is refused where a deleted store's write-ahead log is left, which SQLite would replay into it")
    func aLogLeftByADeletedStoreIsRefused() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("posts.sqlite")
        let store = try SQLitePostStore(path: path)
        try await store.upsert(SamplePosts.make(count: 3))
        // Deleted while open (a server still serving it): its log, not yet folded in, stays.
        try FileManager.default.removeItem(atPath: path)
        let log = try #require(FileManager.default.contents(atPath: path + "-wal"))
        #expect(!log.isEmpty)

        let error = #expect(throws: PostStoreError.self) { try SQLitePostStore(path: path) }
        #expect(error?.code == .corruptStore)
        #expect(error?.message.contains("\(path)-wal is left from a SQLite store whose file \(path) is gone") == true)
        #expect(!FileManager.default.fileExists(atPath: path), "a file was created")
        #expect(FileManager.default.contents(atPath: path + "-wal") == log, "the log was touched")
        withExtendedLifetime(store) {}

        // An empty log is no one's writes: a new store is made.
        let other = directory.file("other.sqlite")
        try Data().write(to: URL(fileURLWithPath: other + "-wal"))
        try await SQLitePostStore(path: other).upsert(SamplePosts.make(count: 1))
    }

    @Test("a store whose file is deleted while open refuses to write, instead of writing into the void")
    func deletedWhileOpen() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("posts.sqlite")
        let store = try SQLitePostStore(path: path)
        try await store.upsert(SamplePosts.make(count: 1))
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        let error = await #expect(throws: PostStoreError.self) { try await store.upsert(SamplePosts.make(count: 2)) }
        #expect(error?.code == .storeNotFound)
        #expect(!FileManager.default.fileExists(atPath: path))
        let readError = await #expect(throws: PostStoreError.self) { try await store.count() }
        #expect(readError?.code == .storeNotFound)

        // A new store at the same path is a new store; the old instance keeps refusing rather than mixing the two.
        try await SQLitePostStore(path: path).upsert(SamplePosts.make(count: 5))
        await #expect(throws: PostStoreError.self) { try await store.query(.all) }
        #expect(try await SQLitePostStore(path: path, mode: .openExisting).count() == 5)
    }

    @Test("a read after the file was deleted refuses, with no write in between, once the look is due")
    func readAfterDeletion() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("posts.sqlite")
        try await SQLitePostStore(path: path).upsert(SamplePosts.make(count: 3))
        // Reads look every time here; the live store looks at most once a millisecond.
        let store = try SQLitePostStore(
            path: path,
            mode: .openExisting,
            busyTimeout: .seconds(1),
            migrator: SQLiteMigrator(),
            clock: SystemClock(),
            movedCheckInterval: .zero
        )
        #expect(try await store.count() == 3)
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        let error = await #expect(throws: PostStoreError.self) { try await store.post(id: 1) }
        #expect(error?.code == .storeNotFound)
        // Once found gone, refused for good, whatever the interval.
        await #expect(throws: PostStoreError.self) { try await store.query(.all) }
    }

    @Test("every path is a file name: not an in-memory database, not a URI; an empty path is refused")
    func pathsAreFileNames() async throws {
        #expect(SQLitePostStore.fileName(for: ":memory:") == "./:memory:")
        #expect(SQLitePostStore.fileName(for: "file:x.sqlite?mode=memory") == "./file:x.sqlite?mode=memory")
        #expect(SQLitePostStore.fileName(for: "/tmp/a.sqlite") == "/tmp/a.sqlite")
        #expect(SQLitePostStore.fileName(for: "./a.sqlite") == "./a.sqlite")
        let directory = try TemporaryDirectory()
        let odd = directory.file("file:x.sqlite?mode=memory")
        try await SQLitePostStore(path: odd).upsert(SamplePosts.make(count: 2))
        #expect(try await SQLitePostStore(path: odd, mode: .openExisting).count() == 2)
        let error = #expect(throws: PostStoreError.self) { try SQLitePostStore(path: "") }
        #expect(error?.code == .invalidArgument)
    }

    @Test("opening an up-to-date store only reads, so it works while another process holds the write lock")
    func openWhileAnotherWrites() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("posts.sqlite")
        try await SQLitePostStore(path: path).upsert(SamplePosts.make(count: 3))
        let blocker = try SQLiteConnection(path: path, create: false, busyTimeout: .seconds(1))
        try blocker.execute("BEGIN IMMEDIATE; DELETE FROM sync_state")
        let reader = try SQLitePostStore(path: path, mode: .openExisting, busyTimeout: .milliseconds(100))
        #expect(try await reader.count() == 3)
        let posts = SamplePosts.make(count: 3)
        #expect(try await reader.query(PostQuery(search: posts[2].body)).contains(posts[2]))
        try blocker.execute("ROLLBACK")
    }

    @Test("posts written by the sqlite3 shell: PostStore's next write heals the index, and a rebuild finds them")
    func postsWrittenByAnotherTool() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("posts.sqlite")
        let store = try SQLitePostStore(path: path)
        try await store.upsert([Post(userId: 1, id: 1, title: "original", body: "text")])
        _ = try sqlite3(path, "INSERT INTO posts (id, user_id, title, body) VALUES (2, 1, 'Handmade', 'by the shell')")
        _ = try sqlite3(path, "UPDATE posts SET title = 'Edited by hand' WHERE id = 1")

        // Not indexed yet, so an index-narrowed search misses it; the id filter and count see it.
        #expect(try await store.query(PostQuery(search: "handmade")) == [])
        #expect(try await store.count() == 2)

        // Deleting the shell's post makes FTS5 remove text it never indexed; the write heals the index and succeeds.
        #expect(
            try await store.upsert([Post(userId: 1, id: 1, title: "final", body: "text")]) == WriteSummary(updated: 1)
        )
        #expect(try await store.query(PostQuery(search: "handmade")).map(\.id) == [2])
        #expect(try await store.query(PostQuery(search: "final")).map(\.id) == [1])
        #expect(try sqlite3(path, "INSERT INTO posts_search (posts_search) VALUES ('integrity-check')") == "")

        _ = try sqlite3(path, "INSERT INTO posts (id, user_id, title, body) VALUES (3, 1, 'Another handmade', '')")
        try await store.rebuildSearchIndex()
        #expect(try await store.query(PostQuery(search: "handmade")).map(\.id) == [2, 3])
    }

    @Test("a store with a table missing is refused at open as damaged")
    func missingTable() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("posts.sqlite")
        _ = try SQLitePostStore(path: path)
        _ = try sqlite3(path, "DROP TABLE posts")
        let error = #expect(throws: PostStoreError.self) { try SQLitePostStore(path: path, mode: .openExisting) }
        #expect(error?.code == .corruptStore)
        #expect(error?.message.contains("posts table is missing") == true)
    }
}

@Suite("SQLite connection")
struct SQLiteConnectionTests {
    @Test("busy timeouts keep their milliseconds, and extreme ones are clamped")
    func busyTimeoutMilliseconds() {
        #expect(SQLiteConnection.milliseconds(.milliseconds(900)) == 900)
        #expect(SQLiteConnection.milliseconds(.seconds(1.5)) == 1500)
        #expect(SQLiteConnection.milliseconds(.seconds(30)) == 30_000)
        #expect(SQLiteConnection.milliseconds(.seconds(Int64.max)) == Int32.max)
        #expect(SQLiteConnection.milliseconds(.seconds(-5)) == 0)
        #expect(SQLiteConnection.milliseconds(.zero) == 0)
    }
}
