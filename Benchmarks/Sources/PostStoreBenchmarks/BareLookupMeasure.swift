import PostStorePostgres
import PostgresNIO

/// The floor under the PostgreSQL engine's lookups: the same statement through postgres-nio's `PostgresClient`
/// alone (pooled, as the store's), without the store's retries, watchdog or decoding into a `Post`.
enum BareLookupMeasure {
    /// The p50 of a lookup by id in microseconds, over `repetitions` random ids of `1...count`.
    static func run(location: PostgresStoreLocation, count: Int, repetitions: Int = 20_000) async throws -> Double {
        let client = PostgresClient(
            configuration: .init(
                host: location.host,
                port: location.port,
                username: location.username,
                password: location.password,
                database: location.database,
                tls: .disable
            )
        )
        return try await withThrowingDiscardingTaskGroup { group in
            group.addTask { await client.run() }
            defer { group.cancelAll() }
            let table = "\"\(location.schema)\".posts"
            var random = SplitMix64(state: 7)
            return try await medianMicroseconds(repetitions: repetitions) {
                let id = Int.random(in: 1...count, using: &random)
                var found = 0
                let rows = try await client.query(
                    "SELECT user_id, title, body FROM \(unescaped: table) WHERE id = \(id)"
                )
                for try await _ in rows.decode((Int, ByteBuffer, ByteBuffer).self) { found += 1 }
                return found
            }
        }
    }
}
