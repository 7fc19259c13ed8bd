import Foundation
import PostStore
import PostStorePostgres
import PostStoreTestSupport
import PostgresNIO

/// The PostgreSQL server the tests run the PostgreSQL engine against (``PostgresTestURL``), and what they do on it
/// as another machine would. Without one the PostgreSQL engine is left out of ``StoreKind/allCases`` and
/// ``PostgresAvailabilityTests`` says how to enable it (and fails under CI).
///
/// Each store gets a schema of its own (``url(schema:)``), dropped when its test ends.
enum PostgresTestServer {
    /// The server's URL, without a schema; `nil` when the tests have none.
    static var baseURL: String? { PostgresTestURL.base }

    /// The URL of a store in its own schema.
    static func url(schema: String) -> String { PostgresTestURL.url(schema: schema) }

    /// A schema name for a test's folder and store name: unique, short enough for PostgreSQL's 63 bytes.
    static func schema(for directory: TemporaryDirectoryName, name: String) -> String {
        let folder = directory.lowercased().filter { $0.isLetter || $0.isNumber }.suffix(24)
        return "t_\(folder)_\(name.lowercased().filter { $0.isLetter || $0.isNumber }.prefix(24))"
    }

    typealias TemporaryDirectoryName = String

    /// Runs `body` on a connection of its own to the server (not the store's pool): how another machine would act.
    static func withConnection<Result: Sendable>(
        _ body: (PostgresConnection) async throws -> Result
    ) async throws -> Result {
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

    /// A new connection to the test server, outside any store's pool.
    private static func connect() async throws -> PostgresConnection {
        let location = try PostgresStoreLocation(url: url(schema: "unused"))
        return try await PostgresConnection.connect(
            configuration: PostgresConnection.Configuration(
                host: location.host,
                port: location.port,
                username: location.username,
                password: location.password,
                database: location.database,
                tls: .disable
            ),
            id: 1,
            logger: Logger(label: "PostgresTestServer")
        )
    }

    /// Takes a store's write lock as another machine's writer would, and returns what releases it.
    static func holdWriteLock(schema: String) async throws -> @Sendable () async throws -> Void {
        let location = try PostgresStoreLocation(url: url(schema: schema))
        // The store's tables, made as its first call would make them.
        try await PostgresPostStore(location: location).migrate()
        let connection = try await connect()
        do {
            try await connection.query("BEGIN", logger: connection.logger)
            try await connection.query(
                "LOCK TABLE \(unescaped: quoted(schema)).posts IN SHARE ROW EXCLUSIVE MODE",
                logger: connection.logger
            )
        } catch {
            try? await connection.close()
            throw error
        }
        return {
            try await connection.query("COMMIT", logger: connection.logger)
            try await connection.close()
        }
    }

    /// What PostgreSQL holds of a store, row versions included (`xmin`, `ctid`): equal before and after a call
    /// only when it wrote no row, not even one with the same values.
    static func storedRows(schema: String) async throws -> [String: Data]? {
        try await withConnection { connection in
            var files: [String: Data] = [:]
            for (table, key) in [("posts", "id"), ("sync_state", "source")] {
                let exists =
                    try await connection.query(
                        "SELECT to_regclass(\(quoted(schema) + "." + table)) IS NOT NULL",
                        logger: connection.logger
                    ).decode(Bool.self).collect().first ?? false
                guard exists else { continue }
                let rows =
                    try await connection.query(
                        """
                        SELECT string_agg(concat_ws(' ', xmin::text, ctid::text, \(unescaped: key)::text), ','
                            ORDER BY \(unescaped: key))
                        FROM \(unescaped: quoted(schema)).\(unescaped: table)
                        """,
                        logger: connection.logger
                    ).decode(String?.self).collect().first ?? nil
                files[table] = Data((rows ?? "").utf8)
            }
            return files
        }
    }

    /// Drops a store's schema, when the tests made it.
    static func dropSchema(_ schema: String) async throws {
        _ = try await withConnection { connection in
            try await connection.query(
                "DROP SCHEMA IF EXISTS \(unescaped: quoted(schema)) CASCADE",
                logger: connection.logger
            )
        }
    }

    private static func quoted(_ name: String) -> String { "\"" + name + "\"" }
}

extension PostgresConnection {
    fileprivate var logger: Logger { Logger(label: "PostgresTestServer") }
}

extension AsyncSequence {
    /// Every element, in order.
    fileprivate func collect() async throws -> [Element] {
        var elements: [Element] = []
        for try await element in self { elements.append(element) }
        return elements
    }
}
