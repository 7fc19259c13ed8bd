import PostStorePostgres
import PostgresNIO

/// The floor under the PostgreSQL engine's queries: the same statements through postgres-nio's `PostgresClient`
/// alone (pooled, as the store's), as postgres-nio's documentation writes them — prepared statements fixed at compile
/// time, the store's schema in the connections' `search_path` — without the store's retries, watchdog or decoding
/// into a `Post`.
enum PostgresNIOAloneMeasure {
    /// A lookup by id.
    struct Lookup: PostgresPreparedStatement {
        static let sql = "SELECT user_id, title, body FROM posts WHERE id = $1"
        typealias Row = (Int, String, String)
        var id: Int

        func makeBindings() -> PostgresBindings {
            var bindings = PostgresBindings()
            bindings.append(id)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
    }

    /// A user's posts, in id order.
    struct UserPosts: PostgresPreparedStatement {
        static let sql = "SELECT id, user_id, title, body FROM posts WHERE user_id = $1 ORDER BY id"
        typealias Row = (Int, Int, String, String)
        var userId: Int

        func makeBindings() -> PostgresBindings {
            var bindings = PostgresBindings()
            bindings.append(userId)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
    }

    /// The p50 of a lookup by id (`"id"`) and of a user's posts (`"user"`) in microseconds, over random ids of
    /// `1...count` and users of `1...count / 10`, as ``QueryMeasures`` draws them.
    ///
    /// With `keepsConnectionsOpen`, the client's pool is configured as `PostgresPostStore`'s
    /// `keepsConnectionsOpen: true` configures its own: every connection opened at once, no keep-alive.
    static func run(
        location: PostgresStoreLocation,
        count: Int,
        keepsConnectionsOpen: Bool = false
    ) async throws -> [String: Double] {
        let client = makeClient(location: location, keepsConnectionsOpen: keepsConnectionsOpen)
        return try await withThrowingDiscardingTaskGroup { group in
            group.addTask { await client.run() }
            defer { group.cancelAll() }
            var random = SplitMix64(state: 42)
            var figures: [String: Double] = [:]
            figures["id"] = try await medianMicroseconds(repetitions: 20_000) {
                var found = 0
                for try await _ in try await client.execute(Lookup(id: Int.random(in: 1...count, using: &random))) {
                    found += 1
                }
                return found
            }
            figures["user"] = try await medianMicroseconds(repetitions: 5_000) {
                var found = 0
                let userId = Int.random(in: 1...(count / 10), using: &random)
                for try await _ in try await client.execute(UserPosts(userId: userId)) { found += 1 }
                return found
            }
            return figures
        }
    }

    /// A client of the store's server and schema (in the connections' `search_path`), configured as
    /// `PostgresPostStore` configures its own with `keepsConnectionsOpen` (every connection opened at once, no
    /// keep-alive) or by postgres-nio's defaults.
    static func makeClient(
        location: PostgresStoreLocation,
        keepsConnectionsOpen: Bool,
        maximumConnections: Int? = nil,
        eventLoop: (any EventLoop)? = nil
    ) -> PostgresClient {
        var configuration = PostgresClient.Configuration(
            host: location.host,
            port: location.port,
            username: location.username,
            password: location.password,
            database: location.database,
            tls: .disable
        )
        configuration.options.additionalStartupParameters = searchPath(of: location)
        if let maximumConnections { configuration.options.maximumConnections = maximumConnections }
        if keepsConnectionsOpen {
            configuration.options.minimumConnections = configuration.options.maximumConnections
            configuration.options.keepAliveBehavior = nil
        }
        guard let eventLoop else { return PostgresClient(configuration: configuration) }
        return PostgresClient(configuration: configuration, eventLoopGroup: eventLoop)
    }

    /// The startup parameter that puts the store's schema in a connection's `search_path`, quoted.
    static func searchPath(of location: PostgresStoreLocation) -> [(String, String)] {
        [("search_path", "\"" + location.schema.replacing("\"", with: "\"\"") + "\"")]
    }
}
