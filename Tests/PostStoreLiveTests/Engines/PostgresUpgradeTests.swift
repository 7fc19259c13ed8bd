import Foundation
import PostStore
import PostStoreTestSupport
import PostgresNIO
import Testing

@testable import PostStorePostgres

/// A store made by PostStore 0.1.0 (titles and bodies as bytes) upgraded in place to text columns that SQL tools
/// read, from a dump of such a store (`Fixtures/`): its posts and sync state as they were, and one holding a NUL
/// character refused and left as it was.
@Suite(.enabled(if: PostgresTestURL.base != nil, "\(PostgresTestURL.howToEnable)"))
struct PostgresUpgradeTests {
    /// Loads a dump of a 0.1.0 store into a new schema and returns the schema's name.
    private func restore(_ dump: [UInt8], schema original: String) async throws -> String {
        let schema = PostgresTestURL.uniqueSchema()
        let sql = String(decoding: dump, as: UTF8.self).replacingOccurrences(of: original, with: schema)
        try await PostgresTestServer.withConnection { connection in
            let logger = Logger(label: "PostgresUpgradeTests")
            do {
                try await connection.query("CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public", logger: logger)
            } catch  where ["23505", "42710"].contains(PostgresFailure.sqlState(of: error)) {
                // Another test (or a store's migration) created it at the same moment: it is there now.
            }
            for statement in PostgresMigrator.statements(of: sql) {
                try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
            }
        }
        return schema
    }

    private func store(_ schema: String) throws -> PostgresPostStore {
        PostgresPostStore(
            location: try PostgresStoreLocation(url: PostgresTestURL.url(schema: schema)),
            mode: .openExisting
        )
    }

    /// Runs a statement on a connection of the test's own and returns its rows' first column as text.
    private func column(_ sql: String) async throws -> [String] {
        try await PostgresTestServer.withConnection { connection in
            let rows = try await connection.query(PostgresQuery(unsafeSQL: sql), logger: Logger(label: "upgrade"))
            var values: [String] = []
            for try await value in rows.decode(String.self) { values.append(value) }
            return values
        }
    }

    /// The posts of a 0.1.0 store, read from its bytes as 0.1.0 read them.
    private func postsStoredAsBytes(in schema: String) async throws -> [Post] {
        try await PostgresTestServer.withConnection { connection in
            let rows = try await connection.query(
                "SELECT id, user_id, title, body FROM \(unescaped: PostgresNames.quoted(schema)).posts ORDER BY id",
                logger: Logger(label: "upgrade")
            )
            var posts: [Post] = []
            for try await (id, userId, title, body) in rows.decode((Int, Int, ByteBuffer, ByteBuffer).self) {
                posts.append(Post(userId: userId, id: id, title: String(buffer: title), body: String(buffer: body)))
            }
            return posts
        }
    }

    @Test func aStoreOfRelease010IsMigratedInPlaceToTextColumns() async throws {
        let schema = try await restore(PackageResources.poststore_release_0_1_0_sql, schema: "poststore_release_0_1_0")
        let quoted = PostgresNames.quoted(schema)
        let before = try await postsStoredAsBytes(in: schema)
        #expect(before.count == 23)

        let store = try store(schema)
        #expect(try await store.query(.all) == before, "every post as it was")
        #expect(try await store.migrationStatus().version == PostgresMigrator.all.count)
        let states = try await store.syncStates()
        #expect(states.map(\.source) == ["/tmp/fixture-010.json"] && states.first?.fetched == 23)

        // What psql, Grafana or Metabase see: text, found with ILIKE, in code-point order.
        let types = try await column(
            """
            SELECT column_name || ' ' || data_type || ' ' || coalesce(collation_name, '-')
            FROM information_schema.columns
            WHERE table_schema = '\(schema)' AND column_name IN ('title', 'body', 'source', 'etag')
            ORDER BY table_name, column_name
            """
        )
        #expect(types == ["body text C", "title text C", "etag text C", "source text C"])
        let found = try await column("SELECT title FROM \(quoted).posts WHERE body ILIKE '%DOLOR%' ORDER BY title")
        #expect(
            found
                == before.filter { $0.body.lowercased().contains("dolor") }.map(\.title).sorted {
                    $0.utf8.lexicographicallyPrecedes($1.utf8)
                }
        )
        #expect(!found.isEmpty)
        #expect(
            try await column("SELECT title FROM \(quoted).posts WHERE id = 1001") == ["Emoji 😀 party 🎉 « guillemets »"]
        )

        // The upgraded store works on: a search, a write, its revision.
        #expect(try await store.query(PostQuery(search: "İstanbul straße")).map(\.id) == [1002])
        #expect(
            try await store.upsert([Post(userId: 1, id: 1, title: "new", body: "text")]) == WriteSummary(updated: 1)
        )
        #expect(try await store.post(id: 1)?.title == "new")
    }

    @Test func aStoreOfRelease010HoldingANULCharacterIsLeftAsItWas() async throws {
        let schema = try await restore(
            PackageResources.poststore_release_0_1_0_nul_sql,
            schema: "poststore_release_0_1_0_nul"
        )
        let before = try await postsStoredAsBytes(in: schema)
        let store = try store(schema)

        let error = await #expect(throws: PostStoreError.self) { try await store.count() }
        #expect(error?.code == .invalidData)
        #expect(error?.message.contains("ids 2, 3") == true, "\(error?.message ?? "")")
        #expect(try await postsStoredAsBytes(in: schema) == before, "left as it was")
        let versions = try await column(
            "SELECT max(version)::text FROM \(PostgresNames.quoted(schema)).poststore_migrations"
        )
        #expect(versions == ["4"], "no migration recorded: the transaction was rolled back")
    }
}
