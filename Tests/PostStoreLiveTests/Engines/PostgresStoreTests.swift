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
