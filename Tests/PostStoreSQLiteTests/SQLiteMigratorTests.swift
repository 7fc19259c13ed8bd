import Foundation
import PostStore
import PostStoreSQLiteMigrations
import PostStoreTestSupport
import PostStoreTesting
import Testing

@testable import PostStoreSQLite

@Suite("SQLite migrations")
struct SQLiteMigratorTests {
    @Test("every .sql file in Migrations/SQLite is embedded, byte for byte, and numbered 1, 2, 3, … in order")
    func embeddedMigrationsMatchTheFolder() throws {
        try expectEmbeddedMigrations(embeddedMigrations, matchFolder: "Migrations/SQLite")
        #expect(SQLiteMigration.all.map(\.version) == Array(1...SQLiteMigration.all.count))
    }

    @Test("migration file names must be NNNN_description.sql")
    func migrationNames() {
        #expect(SQLiteMigration(fileName: "0001_create.sql", sql: "")?.version == 1)
        #expect(SQLiteMigration(fileName: "0012_x.sql", sql: "")?.version == 12)
        #expect(SQLiteMigration(fileName: "1_create.sql", sql: "") == nil)
        #expect(SQLiteMigration(fileName: "0001-create.sql", sql: "") == nil)
        #expect(SQLiteMigration(fileName: "0001_create.txt", sql: "") == nil)
        #expect(SQLiteMigration(fileName: "0000_zero.sql", sql: "") == nil)
    }

    @Test("the checksum ignores line-ending style but nothing else")
    func checksums() {
        let unix = SQLiteMigration(fileName: "0001_a.sql", sql: "CREATE TABLE a (x);\nSELECT 1;\n")!
        let windows = SQLiteMigration(fileName: "0001_a.sql", sql: "CREATE TABLE a (x);\r\nSELECT 1;\r\n")!
        let edited = SQLiteMigration(fileName: "0001_a.sql", sql: "CREATE TABLE a (y);\nSELECT 1;\n")!
        #expect(unix.checksum == windows.checksum)
        #expect(unix.checksum != edited.checksum)
        #expect(unix.checksum.count == 16)
    }

    @Test("a fresh file gets every migration, recorded with its checksum")
    func freshFile() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("posts.sqlite")
        _ = try SQLitePostStore(path: path)
        let rows = try sqlite3(path, "SELECT version, name, checksum FROM poststore_migrations ORDER BY version")
        let expected = SQLiteMigration.all.map { "\($0.version)|\($0.name)|\($0.checksum)" }.joined(separator: "\n")
        #expect(rows == expected)
        #expect(try sqlite3(path, "PRAGMA user_version") == String(SQLiteMigration.all.count))
        #expect(try sqlite3(path, "PRAGMA journal_mode") == "wal")
    }

    /// Makes a store with the first `count` migrations only, as an older build made it.
    private static func makeStore(at path: String, migrations count: Int) throws {
        _ = try SQLitePostStore(
            path: path,
            mode: .createIfMissing,
            busyTimeout: .seconds(5),
            searchIndex: false,
            migrator: SQLiteMigrator(migrations: Array(SQLiteMigration.all.prefix(count)), checksSchema: false),
            clock: SystemClock()
        )
    }

    @Test("a file two migrations behind is brought up to date and keeps its posts")
    func fileTwoMigrationsBehind() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("posts.sqlite")
        try Self.makeStore(at: path, migrations: SQLiteMigration.all.count - 2)
        _ = try sqlite3(path, "INSERT INTO posts (id, user_id, title, body) VALUES (1, 1, 'Old Title', 'old body')")

        let store = try SQLitePostStore(path: path, mode: .openExisting)
        #expect(try await store.post(id: 1) == Post(userId: 1, id: 1, title: "Old Title", body: "old body"))
        #expect(try await store.count() == 1)
        #expect(try sqlite3(path, "SELECT count(*) FROM poststore_migrations") == String(SQLiteMigration.all.count))
    }

    @Test("a store from before its metadata had one row keeps its identity, revision and history in that row")
    func storeFromBeforeTheMetadataRow() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("posts.sqlite")
        try Self.makeStore(at: path, migrations: 6)
        _ = try sqlite3(
            path,
            """
            UPDATE poststore_settings SET value = '12' WHERE key = 'revision';
            UPDATE poststore_settings SET value = '9' WHERE key = 'change_floor';
            UPDATE poststore_settings SET value = '40' WHERE key = 'change_history_limit';
            """
        )
        let storeID = try sqlite3(path, "SELECT value FROM poststore_settings WHERE key = 'store_id'")

        let store = try SQLitePostStore(path: path, mode: .openExisting)

        #expect(try await store.changeToken() == ChangeToken("\(storeID)-12"))
        let history = try await store.changeHistory()
        #expect(history.oldest == ChangeToken("\(storeID)-9") && history.limit == 40)
        #expect(try sqlite3(path, "SELECT count(*) FROM store_revision") == "1")
        // The settings keep only the search index's state.
        #expect(try sqlite3(path, "SELECT count(*) FROM poststore_settings WHERE key <> 'search_index'") == "0")
    }

    @Test("a store from before the changes feed begins its history at its revision; its posts stay out of answers")
    func storeFromBeforeTheChangesFeed() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("posts.sqlite")
        try Self.makeStore(at: path, migrations: 5)
        _ = try sqlite3(
            path,
            """
            INSERT INTO posts (id, user_id, title, body) VALUES (1, 1, 'Old', 'post'), (2, 1, 'Another', 'one');
            UPDATE poststore_settings SET value = '7' WHERE key = 'revision';
            """
        )
        let storeID = try sqlite3(path, "SELECT value FROM poststore_settings WHERE key = 'store_id'")

        let store = try SQLitePostStore(path: path, mode: .openExisting)
        let token = try #require(ChangeToken("\(storeID)-7"), "the revision an ETag of the older build carried")
        #expect(try await store.changeToken() == token)
        #expect(
            try await store.changes(since: token)
                == PostChanges(posts: [], deletedIds: [], next: token, isCaughtUp: true)
        )
        await #expect {
            _ = try await store.changes(since: ChangeToken("\(storeID)-6")!)
        } throws: { ($0 as? PostStoreError)?.code == .mustRefetch }
        #expect(try await store.changes(since: nil).posts.map(\.id) == [1, 2])
        try await store.upsert([Post(userId: 1, id: 2, title: "Another", body: "changed")])
        #expect(try await store.changes(since: token).posts.map(\.id) == [2])
    }

    @Test("an up-to-date file opens without changes")
    func upToDateFile() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("posts.sqlite")
        _ = try await SQLitePostStore(path: path).upsert(SamplePosts.make(count: 3))
        let before = try sqlite3(path, "SELECT * FROM poststore_migrations")
        #expect(try await SQLitePostStore(path: path, mode: .openExisting).count() == 3)
        #expect(try sqlite3(path, "SELECT * FROM poststore_migrations") == before)
    }

    @Test("an applied migration whose file has changed is refused, and the file is not altered")
    func modifiedMigration() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("posts.sqlite")
        _ = try SQLitePostStore(path: path)
        _ = try sqlite3(path, "UPDATE poststore_migrations SET checksum = '0123456789abcdef' WHERE version = 2")
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let error = #expect(throws: PostStoreError.self) { try SQLitePostStore(path: path, mode: .openExisting) }
        #expect(error?.code == .migrationMismatch)
        #expect(error?.message.contains("0002_create_search_index.sql") == true)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test("a database with a newer schema is refused, and the file is not altered")
    func newerSchema() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("posts.sqlite")
        _ = try SQLitePostStore(path: path)
        _ = try sqlite3(
            path,
            "INSERT INTO poststore_migrations VALUES (99, '0099_future.sql', 'ffffffffffffffff', '2030-01-01')"
        )
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let error = #expect(throws: PostStoreError.self) { try SQLitePostStore(path: path) }
        #expect(error?.code == .unsupportedVersion)
        #expect(error?.message.contains("99") == true)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test("a store whose recorded migrations do not match its tables is refused as damaged")
    func recordsDoNotMatchTables() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("posts.sqlite")
        _ = try SQLitePostStore(path: path)
        // The last migration that creates a table (0004; 0005 adds rows only).
        _ = try sqlite3(path, "DELETE FROM poststore_migrations WHERE version = 4")
        let error = #expect(throws: PostStoreError.self) { try SQLitePostStore(path: path, mode: .openExisting) }
        #expect(error?.code == .corruptStore)
        #expect(error?.message.contains("do not match its recorded migrations") == true)
    }

    @Test("a migration that fails is rolled back whole, and the earlier ones stay")
    func failingMigrationRollsBack() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("posts.sqlite")
        let broken =
            SQLiteMigration.all + [
                SQLiteMigration(
                    fileName: String(format: "%04d_broken.sql", SQLiteMigration.all.count + 1),
                    sql: "CREATE TABLE extra (x); SELECT * FROM nowhere;"
                )!
            ]
        #expect(throws: PostStoreError.self) {
            try SQLitePostStore(
                path: path,
                mode: .createIfMissing,
                busyTimeout: .seconds(5),
                migrator: SQLiteMigrator(migrations: broken),
                clock: SystemClock()
            )
        }
        #expect(try sqlite3(path, "SELECT max(version) FROM poststore_migrations") == String(SQLiteMigration.all.count))
        #expect(try sqlite3(path, "SELECT count(*) FROM sqlite_schema WHERE name = 'extra'") == "0")
    }
}
