import Logging
import PostgresNIO

/// Exploration only: connects and runs one query.
enum PostgresProbe {
    static func version(host: String, port: Int) async throws -> String {
        let config = PostgresClient.Configuration(
            host: host, port: port, username: "poststore", password: nil, database: "postgres", tls: .disable)
        let client = PostgresClient(configuration: config)
        return try await withThrowingTaskGroup(of: String?.self) { group in
            group.addTask { await client.run(); return nil }
            let rows = try await client.query("SELECT version()")
            var text = ""
            for try await (v) in rows.decode(String.self) { text = v }
            group.cancelAll()
            return text
        }
    }
}
