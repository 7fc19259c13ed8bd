import PostStore
import PostStoreTestSupport
import PostStoreTesting
import PostgresNIO
import Testing

@testable import PostStorePostgres

/// What the PostgreSQL engine does beyond the contract, on the test server: it refuses schemas it cannot use and
/// leaves them untouched, and it waits for another process's migration only so long.
@Suite(.enabled(if: PostgresTestURL.base != nil, "\(PostgresTestURL.howToEnable)"))
struct PostgresStoreTests {
    /// A store in a new schema, and the schema's name.
    private func makeStore(
        mode: StoreOpenMode = .createIfMissing,
        schema: String = PostgresTestURL.uniqueSchema(),
        lockTimeout: Duration = .seconds(5)
    ) throws -> (PostgresPostStore, String) {
        let location = try PostgresStoreLocation(url: PostgresTestURL.url(schema: schema))
        return (PostgresPostStore(location: location, mode: mode, lockTimeout: lockTimeout), schema)
    }

    private func execute(_ sql: String) async throws {
        try await PostgresTestServer.withConnection { connection in
            for try await _ in try await connection.query(PostgresQuery(unsafeSQL: sql), logger: Logger(label: "t")) {}
        }
    }

    private func expectRefused(_ code: PostStoreError.Code, schema: String, mentioning text: String) async throws {
        let (store, _) = try makeStore(mode: .openExisting, schema: schema)
        let error = await #expect(throws: PostStoreError.self) { try await store.count() }
        #expect(error?.code == code, "\(String(describing: error))")
        #expect(error?.message.contains(text) == true, "\(error?.message ?? "")")
    }

    /// Reads around the prepared path's bound (256 rows): below, at and above it, in order, whole.
    @Test func answersOfMoreRowsThanThePreparedBoundAreWhole() async throws {
        let (store, _) = try makeStore()
        let posts = (1...600).map { Post(userId: $0 <= 300 ? 1 : 2, id: $0, title: "t\($0)", body: "b") }
        try await store.upsert(posts)
        let bound = PostgresSession.boundedRowCount
        #expect(try await store.query(PostQuery(userIds: [1])) == Array(posts[0..<300]))
        #expect(try await store.query(PostQuery(userIds: [1], limit: bound)) == Array(posts[0..<bound]))
        #expect(try await store.query(PostQuery(userIds: [1], limit: bound + 1)) == Array(posts[0...bound]))
        #expect(try await store.query(PostQuery(sort: .idDescending, offset: 100)) == Array(posts[0..<500].reversed()))
        #expect(try await store.query(PostQuery(userIds: [2], limit: bound - 1)).count == bound - 1)
        let page = try await store.page(PostQuery(userIds: [1, 2], limit: 300, offset: 250))
        #expect(page.posts == Array(posts[250..<550]) && page.total == 600)
    }

    @Test func aNewerSchemaIsRefusedAndLeftUntouched() async throws {
        let (store, schema) = try makeStore()
        try await store.upsert(SamplePosts.make(count: 2))
        try await execute(
            "INSERT INTO \"\(schema)\".poststore_migrations (version, name, checksum) VALUES (99, '0099_future.sql', 'x')"
        )

        try await expectRefused(.unsupportedVersion, schema: schema, mentioning: "schema version 99")
        try await execute("DELETE FROM \"\(schema)\".poststore_migrations WHERE version = 99")
        #expect(try await makeStore(mode: .openExisting, schema: schema).0.count() == 2, "the posts are still there")
    }

    @Test func aChangedMigrationIsRefused() async throws {
        let (store, schema) = try makeStore()
        try await store.migrate()
        try await execute("UPDATE \"\(schema)\".poststore_migrations SET checksum = 'changed' WHERE version = 1")

        try await expectRefused(.migrationMismatch, schema: schema, mentioning: "0001_create_posts.sql")
    }

    @Test func aSchemaOfAnotherApplicationIsRefusedAndLeftUntouched() async throws {
        let schema = PostgresTestURL.uniqueSchema()
        try await execute("CREATE SCHEMA \"\(schema)\"")
        try await execute("CREATE TABLE \"\(schema)\".orders (id int)")
        let (store, _) = try makeStore(schema: schema)

        let error = await #expect(throws: PostStoreError.self) { try await store.count() }

        #expect(error?.code == .corruptStore, "\(String(describing: error))")
        #expect(error?.message.contains("holds other tables (orders)") == true, "\(error?.message ?? "")")
        try await execute("SELECT id FROM \"\(schema)\".orders")
    }

    @Test func aSchemaOfManyTablesIsNamedByItsFirstFive() async throws {
        let schema = PostgresTestURL.uniqueSchema()
        try await execute("CREATE SCHEMA \"\(schema)\"")
        for table in ["a", "b", "c", "d", "e", "f", "g"] {
            try await execute("CREATE TABLE \"\(schema)\".\(table) (id int)")
        }
        let (store, _) = try makeStore(schema: schema)

        let error = await #expect(throws: PostStoreError.self) { try await store.count() }

        #expect(
            error?.message.contains("holds other tables (a, b, c, d, e and 2 more)") == true,
            "\(String(describing: error))"
        )
    }

    private func hasSearchIndex(schema: String) async throws -> Bool {
        try await PostgresTestServer.withConnection { connection in
            let name = PostgresNames(schema: schema).quotedSchema + "." + PostgresSearchIndex.name
            let rows = try await connection.query("SELECT to_regclass(\(name)) IS NOT NULL", logger: Logger(label: "t"))
            return try await rows.decode(Bool.self).first(where: { _ in true }) == true
        }
    }

    @Test func theFirstWriteBuildsTheSearchIndexUnlessItIsTurnedOff() async throws {
        let posts = SamplePosts.make(count: 20)
        let term = String(posts[7].title.prefix(6))
        let (indexed, indexedSchema) = try makeStore()
        let unindexedSchema = PostgresTestURL.uniqueSchema()
        let unindexed = PostgresPostStore(
            location: try PostgresStoreLocation(url: PostgresTestURL.url(schema: unindexedSchema)),
            searchIndex: false
        )
        try await indexed.migrate()
        #expect(try await !hasSearchIndex(schema: indexedSchema), "migrations leave the index to the first write")

        try await indexed.upsert(posts)
        try await unindexed.upsert(posts)

        #expect(try await hasSearchIndex(schema: indexedSchema))
        #expect(try await !hasSearchIndex(schema: unindexedSchema))
        let found = try await indexed.query(PostQuery(search: term))
        #expect(!found.isEmpty && found.allSatisfy { TextSearch(term).matches($0) })
        #expect(try await unindexed.query(PostQuery(search: term)) == found, "a scan answers as the index does")
    }

    @Test func anotherProcesssMigrationIsWaitedForAtMostTheLockTimeout() async throws {
        let schema = PostgresTestURL.uniqueSchema()
        let holder = try await PostgresConnection.connect(
            configuration: try PostgresStoreLocation(url: PostgresTestURL.url(schema: "unused"))
                .connectionConfiguration(),
            id: 9,
            logger: Logger(label: "t")
        )
        do {
            for try await _ in try await holder.query("BEGIN", logger: Logger(label: "t")) {}
            for try await _ in try await holder.query(
                "SELECT pg_advisory_xact_lock(\(PostgresMigrator.advisoryLockClass), hashtext(\(schema)))",
                logger: Logger(label: "t")
            ) {}
            let (store, _) = try makeStore(schema: schema, lockTimeout: .milliseconds(200))

            let error = await #expect(throws: PostStoreError.self) { try await store.migrate() }

            #expect(error?.code == .storeBusy, "\(String(describing: error))")
            try await holder.close()
        } catch {
            try? await holder.close()
            throw error
        }
    }
}
