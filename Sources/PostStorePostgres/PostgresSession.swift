import Logging
import PostStore
import PostgresNIO
import Synchronization

/// One leased connection for one store call: the statements it runs, and a watchdog that closes the connection when
/// the server stops answering for longer than the statement timeout.
///
/// PostgreSQL's own `statement_timeout` (set on every connection) ends a slow statement with an error; the watchdog
/// is for a server that cannot answer at all (stopped, or cut off by the network), which TCP alone may take many
/// minutes to notice. Closing the connection fails the pending statement, and with it the call.
struct PostgresSession {
    let connection: PostgresConnection
    let logger: Logger
    let watchdog: PostgresWatchdog

    /// Leases a connection from the client for the body's duration, watched.
    static func withSession<Result: Sendable>(
        client: PostgresClient,
        limit: Duration,
        logger: Logger,
        isolation: isolated (any Actor)? = #isolation,
        _ body: (PostgresSession) async throws -> Result
    ) async throws -> Result {
        try await client.withConnection(isolation: isolation) { connection in
            try await withSession(on: connection, limit: limit, logger: logger, isolation: isolation, body)
        }
    }

    /// Runs the body on a connection, watched.
    static func withSession<Result: Sendable>(
        on connection: PostgresConnection,
        limit: Duration,
        logger: Logger,
        isolation: isolated (any Actor)? = #isolation,
        _ body: (PostgresSession) async throws -> Result
    ) async throws -> Result {
        let watchdog = PostgresWatchdog(limit: limit, connection: connection)
        defer { watchdog.stop() }
        return try await body(PostgresSession(connection: connection, logger: logger, watchdog: watchdog))
    }

    /// Runs a statement and returns its rows, to be read before the next statement.
    ///
    /// PostgresNIO never answers a statement written to a closed connection (its promise is dropped with the
    /// write), so none is sent once the connection is closed — by the server, the network or the watchdog — and the
    /// statement's answer is awaited under the watchdog, which gives up on it when the connection closes under it.
    func query(_ query: PostgresQuery) async throws -> PostgresRowSequence {
        try watchdog.extend()
        try checkOpen()
        return try await watchdog.guarding { [connection, logger] in try await connection.query(query, logger: logger) }
    }

    /// Runs a statement and hands each row to `onRow` as it arrives, on the connection's event loop, returning once
    /// the last one was handed over.
    ///
    /// For results that may be large and are read whole: postgres-nio 1.33.2 stops the process (a failed
    /// precondition) when a connection closes while a result streams through ``query(_:)``'s back-pressured
    /// sequence and its reader is behind; rows taken as they arrive never leave the reader behind.
    func forEachRow(_ query: PostgresQuery, _ onRow: @escaping @Sendable (PostgresRow) throws -> Void) async throws {
        try watchdog.extend()
        try checkOpen()
        _ = try await watchdog.guarding { [connection, logger, watchdog] in
            try await connection.query(query, logger: logger) { row in
                try watchdog.extend()
                try onRow(row)
            }.get()
        }
    }

    /// The most rows a result read through ``preparedRows(_:)`` may have: postgres-nio's row sequence asks the
    /// server for more until its reader holds 256 rows unread, so a result of at most that many never waits for its
    /// reader, and cannot meet the trap of a connection closing under a reader that is behind (see
    /// ``forEachRow(_:_:)``).
    static let boundedRowCount = 256

    /// Runs a statement as a named prepared statement (``PostgresNamedStatement``) and returns its rows: for
    /// statements the store runs often whose result has at most ``boundedRowCount`` rows (a `LIMIT` says so).
    func preparedRows(_ query: PostgresQuery) async throws -> [PostgresRow] {
        try watchdog.extend()
        try checkOpen()
        return try await watchdog.guarding { [connection, logger, watchdog] in
            var rows: [PostgresRow] = []
            for try await row in try await PostgresNamedStatement.run(query, on: connection, logger: logger) {
                try watchdog.extend()
                rows.append(row)
            }
            return rows
        }
    }

    /// Throws ``PostgresSessionError/connectionClosed`` when the connection is closed.
    private func checkOpen() throws {
        if connection.isClosed { throw PostgresSessionError.connectionClosed }
    }

    /// Runs a statement and discards what it returns.
    func execute(_ query: PostgresQuery) async throws {
        for try await _ in try await self.query(query) { try watchdog.extend() }
    }

    /// The rows of a statement, decoded.
    func rows<each Column: PostgresDecodable & Sendable>(
        _ query: PostgresQuery,
        as types: (repeat each Column).Type
    ) async throws -> [(repeat each Column)] {
        var rows: [(repeat each Column)] = []
        for try await row in try await self.query(query).decode(types) {
            try watchdog.extend()
            rows.append(row)
        }
        return rows
    }

    /// The first column of a statement's one row.
    func value<Value: PostgresDecodable & Sendable>(_ query: PostgresQuery, as type: Value.Type) async throws -> Value {
        var value: Value?
        for try await row in try await self.query(query).decode(Value.self) where value == nil { value = row }
        guard let value else { throw PostgresSessionError.noRow }
        return value
    }

    /// Tells the watchdog that the call is still making progress (a long read between statements).
    func stillWorking() throws {
        try watchdog.extend()
    }

    /// Runs the body in a transaction, committed when it returns, rolled back when it throws.
    ///
    /// A connection lost while the `COMMIT` is on its way leaves the outcome unknown, so that failure is not one
    /// to retry blindly: it is reported as such.
    func transaction<Result>(
        server: String,
        _ body: (PostgresSession) async throws -> Result
    ) async throws -> Result {
        try await execute("BEGIN")
        let result: Result
        do {
            result = try await body(self)
        } catch {
            await rollBack()
            throw error
        }
        do {
            try await execute("COMMIT")
        } catch  where PostgresFailure.sqlState(of: error) == nil && !Self.neverSent(error) {
            throw PostStoreError(
                .storeUnavailable,
                "The connection to the PostgreSQL server at \(server) was lost while committing: the write may or "
                    + "may not have been saved. Run it again (a sync repeats safely).",
                cause: error
            )
        }
        return result
    }

    /// Whether a statement failed before it was written, so that the server cannot have run it.
    private static func neverSent(_ error: any Error) -> Bool {
        (error as? PostgresSessionError) == .connectionClosed
    }

    /// Runs the body in a transaction that sees one snapshot of the store, and rolls it back whatever the body
    /// wrote (a preview's temporary table).
    func snapshot<Result>(_ body: (PostgresSession) async throws -> Result) async throws -> Result {
        try await execute("BEGIN ISOLATION LEVEL REPEATABLE READ")
        do {
            let result = try await body(self)
            await rollBack()
            return result
        } catch {
            await rollBack()
            throw error
        }
    }

    /// Rolls back, and closes a connection that cannot (so that the pool never hands out one in a transaction).
    ///
    /// A closed connection has nothing to roll back: the server ends the transaction of a lost client.
    func rollBack() async {
        if connection.isClosed { return }
        do {
            try await execute("ROLLBACK")
        } catch {
            try? await connection.close()
        }
    }
}

/// What a session can throw of its own.
enum PostgresSessionError: Error {
    /// A statement that always returns one row returned none.
    case noRow
    /// The server stopped answering and the watchdog closed the connection.
    case stoppedAnswering
    /// The connection was closed (by the server, the network or a failure) before a statement could be sent.
    case connectionClosed
}
