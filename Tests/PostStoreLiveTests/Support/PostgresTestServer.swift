import Foundation
import PostStore
import PostStoreTestSupport
import PostgresNIO

@testable import PostStorePostgres

/// What the tests do on the PostgreSQL test server (``PostgresTestURL``) as another machine would: hold a store's
/// write lock, read its row versions, drop its schema. Without a server the PostgreSQL engine is left out of
/// ``StoreKind/allCases`` and ``PostgresAvailabilityTests`` says how to enable it (and fails under CI).
enum PostgresTestServer {
    private static let logger = Logger(label: "PostgresTestServer")

    /// A connection of its own to the server, outside any store's pool; PostgresNIO wants it closed before it goes.
    private static func connect() async throws -> PostgresConnection {
        let location = try PostgresStoreLocation(url: PostgresTestURL.url(schema: "unused"))
        var configuration = try location.connectionConfiguration()
        configuration.tls = .disable
        return try await PostgresConnection.connect(
            configuration: configuration,
            id: 1,
            logger: logger
        )
    }

    /// Runs `body` on a connection of its own, closed after.
    ///
    /// - Throws: What `body` throws; a `PSQLError` as a ``ServerError`` that says what the server said (a
    ///   `PSQLError` describes itself as "Generic description…", which tells a failing test nothing).
    static func withConnection<Result: Sendable>(
        _ body: (PostgresConnection) async throws -> Result
    ) async throws -> Result {
        try await described {
            let connection = try await connect()
            do {
                let result = try await body(connection)
                try await connection.close()
                return result
            } catch {
                try? await connection.close()
                throw error
            }
        }
    }

    /// What `body` returns; a `PSQLError` it throws as a ``ServerError``.
    private static func described<Result>(_ body: () async throws -> Result) async throws -> Result {
        do {
            return try await body()
        } catch let error as PSQLError {
            throw ServerError(sqlState: error.serverInfo?[.sqlState], description: String(reflecting: error))
        }
    }

    /// An error of the test server, described in full.
    struct ServerError: Error, CustomStringConvertible {
        /// The server's SQLSTATE, when the server sent the error.
        let sqlState: String?
        let description: String
    }

    /// Takes a store's write lock as another machine's writer would, and returns what releases it.
    static func holdWriteLock(schema: String) async throws -> @Sendable () async throws -> Void {
        // The store's tables, made as its first call would make them.
        try await PostgresPostStore(location: PostgresStoreLocation(url: PostgresTestURL.url(schema: schema))).migrate()
        let connection = try await described { try await connect() }
        do {
            try await described {
                try await connection.query("BEGIN", logger: logger)
                try await connection.query(
                    "LOCK TABLE \(unescaped: PostgresNames(schema: schema).posts) IN SHARE ROW EXCLUSIVE MODE",
                    logger: logger
                )
            }
        } catch {
            try? await connection.close()
            throw error
        }
        return {
            try await connection.query("COMMIT", logger: logger)
            try await connection.close()
        }
    }

    /// What PostgreSQL holds of a store, row versions included (`xmin`, `ctid`): equal before and after a call
    /// only when it wrote no row, not even one with the same values.
    static func storedRows(schema: String) async throws -> [String: Data] {
        let names = PostgresNames(schema: schema)
        return try await withConnection { connection in
            var rows: [String: Data] = [:]
            for (table, key) in [(names.posts, "id"), (names.syncState, "source")] {
                guard
                    try await connection.query("SELECT to_regclass(\(table)) IS NOT NULL", logger: logger)
                        .decode(Bool.self).first(where: { _ in true }) == true
                else { continue }
                let versions = try await connection.query(
                    """
                    SELECT string_agg(concat_ws(' ', xmin::text, ctid::text, \(unescaped: key)::text), ','
                        ORDER BY \(unescaped: key))
                    FROM \(unescaped: table)
                    """,
                    logger: logger
                ).decode(String?.self).first(where: { _ in true })
                rows[table] = Data(((versions ?? nil) ?? "").utf8)
            }
            return rows
        }
    }

    /// Drops a store's schema, when the tests made it; tried again when the server broke a deadlock with another
    /// test's drop (40P01).
    static func dropSchema(_ schema: String) async throws {
        for attempt in 1... {
            do {
                return try await withConnection { connection in
                    _ = try await connection.query(
                        "DROP SCHEMA IF EXISTS \(unescaped: PostgresNames(schema: schema).quotedSchema) CASCADE",
                        logger: logger
                    )
                }
            } catch let error as ServerError where error.sqlState == "40P01" && attempt < 5 {
                continue
            }
        }
    }
}
