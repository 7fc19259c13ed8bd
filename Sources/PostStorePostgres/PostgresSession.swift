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
    fileprivate let watchdog: Watchdog

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
        let watchdog = Watchdog(limit: limit, connection: connection)
        defer { watchdog.stop() }
        // PostgresNIO does not end a statement when its task is cancelled (a write waiting for the lock would wait
        // on): closing the connection ends it, and the server rolls the transaction back.
        return try await withTaskCancellationHandler {
            try await body(PostgresSession(connection: connection, logger: logger, watchdog: watchdog))
        } onCancel: {
            watchdog.closeConnection()
        }
    }

    /// Runs a statement and returns its rows, to be read before the next statement.
    func query(_ query: PostgresQuery) async throws -> PostgresRowSequence {
        watchdog.extend()
        return try await connection.query(query, logger: logger)
    }

    /// Runs a statement and discards what it returns.
    func execute(_ query: PostgresQuery) async throws {
        for try await _ in try await self.query(query) { watchdog.extend() }
    }

    /// The rows of a statement, decoded.
    func rows<each Column: PostgresDecodable & Sendable>(
        _ query: PostgresQuery,
        as types: (repeat each Column).Type
    ) async throws -> [(repeat each Column)] {
        var rows: [(repeat each Column)] = []
        for try await row in try await self.query(query).decode(types) {
            watchdog.extend()
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

    /// Streams rows into a table of the search path with `COPY … FROM STDIN`; `writeData` calls ``stillWorking()``
    /// as it writes.
    func copy(
        into table: String,
        columns: [String],
        writeData: (PostgresCopyFromWriter) async throws -> Void
    ) async throws {
        watchdog.extend()
        try await connection.copyFrom(table: table, columns: columns, logger: logger, writeData: writeData)
    }

    /// Tells the watchdog that the call is still making progress (a long read or write between statements).
    func stillWorking() {
        watchdog.extend()
    }

    /// Runs the body in a transaction that `begin` opens (`BEGIN`, or one with an isolation level), committed when
    /// it returns, rolled back when it throws.
    ///
    /// A connection lost while the `COMMIT` is on its way leaves the outcome unknown, so that failure is not one
    /// to retry blindly: it is reported as such.
    func transaction<Result>(
        begin: PostgresQuery = "BEGIN",
        server: String,
        _ body: (PostgresSession) async throws -> Result
    ) async throws -> Result {
        try await execute(begin)
        let result: Result
        do {
            result = try await body(self)
        } catch {
            await rollBack()
            throw error
        }
        do {
            try await execute("COMMIT")
        } catch  where PostgresFailure.sqlState(of: error) == nil {
            throw PostStoreError(
                .storeUnavailable,
                "The connection to the PostgreSQL server at \(server) was lost while committing: the write may or "
                    + "may not have been saved. Run it again (a sync repeats safely).",
                cause: error
            )
        }
        return result
    }

    /// Runs the body in a read-only transaction that sees one snapshot, and rolls it back.
    func snapshot<Result>(_ body: (PostgresSession) async throws -> Result) async throws -> Result {
        try await execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
        do {
            let result = try await body(self)
            try await execute("COMMIT")
            return result
        } catch {
            await rollBack()
            throw error
        }
    }

    /// Rolls back, and closes a connection that cannot (so that the pool never hands out one in a transaction).
    func rollBack() async {
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
}

/// Closes a connection when no statement of the call has made progress within the limit.
private final class Watchdog: Sendable {
    private let limit: Duration
    private let deadline: Mutex<ContinuousClock.Instant>
    private let task: Mutex<Task<Void, Never>?> = Mutex(nil)

    private let connection: PostgresConnection

    init(limit: Duration, connection: PostgresConnection) {
        self.limit = limit
        self.connection = connection
        deadline = Mutex(.now + limit)
        let started = Task { [self] in
            while !Task.isCancelled {
                let due = deadline.withLock { $0 }
                guard ContinuousClock.now >= due else {
                    try? await Task.sleep(until: due, clock: .continuous)
                    continue
                }
                try? await connection.close()
                return
            }
        }
        task.withLock { $0 = started }
    }

    func extend() {
        deadline.withLock { $0 = .now + limit }
    }

    /// Closes the connection now, which fails the statement in flight.
    func closeConnection() {
        Task { [connection] in try? await connection.close() }
    }

    func stop() {
        task.withLock { $0?.cancel() }
    }
}
