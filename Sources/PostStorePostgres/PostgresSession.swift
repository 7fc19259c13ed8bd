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

/// Closes a connection when no statement of the call has made progress within the limit, and refuses statements
/// after that; a statement awaited through ``guarding(_:)`` is given up then even if PostgresNIO never answers it.
private final class Watchdog: Sendable {
    private struct State {
        /// When the connection is closed unless a statement makes progress first; `nil` once it was closed.
        var due: ContinuousClock.Instant?
        /// The statement awaited now, if any.
        var waiter: (any AbandonableWaiter)?
    }

    private let limit: Duration
    private let state: Mutex<State>
    private let task: Mutex<Task<Void, Never>?> = Mutex(nil)

    init(limit: Duration, connection: PostgresConnection) {
        self.limit = limit
        state = Mutex(State(due: .now + limit))
        let started = Task { [self] in
            while !Task.isCancelled {
                let (due, waiter) = self.state.withLock {
                    state -> (ContinuousClock.Instant?, (any AbandonableWaiter)?) in
                    guard let pending = state.due, ContinuousClock.now >= pending else { return (state.due, nil) }
                    state.due = nil
                    defer { state.waiter = nil }
                    return (nil, state.waiter)
                }
                guard let due else {
                    try? await connection.close()
                    waiter?.fail(PostgresSessionError.stoppedAnswering)
                    return
                }
                try? await Task.sleep(until: due, clock: .continuous)
            }
        }
        task.withLock { $0 = started }
    }

    /// Moves the deadline on; after the connection was closed, throws instead.
    func extend() throws {
        try state.withLock { state in
            guard state.due != nil else { throw PostgresSessionError.stoppedAnswering }
            state.due = .now + limit
        }
    }

    /// Awaits an answer of PostgresNIO, or the watchdog's verdict once the limit passes without one.
    ///
    /// The operation runs in a task of its own so that it can be left behind: PostgresNIO may never complete a
    /// statement whose connection closed as it was written. A task left behind ends when PostgresNIO answers, if
    /// ever; it holds nothing of the store.
    func guarding<Value: Sendable>(
        _ operation: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            let waiter = Waiter(continuation)
            let open = state.withLock { state in
                guard state.due != nil else { return false }
                state.waiter = waiter
                return true
            }
            guard open else {
                waiter.fail(PostgresSessionError.stoppedAnswering)
                return
            }
            Task {
                let result: Result<Value, any Error>
                do {
                    result = .success(try await operation())
                } catch {
                    result = .failure(error)
                }
                state.withLock { if $0.waiter === waiter { $0.waiter = nil } }
                waiter.resume(with: result)
            }
        }
    }

    func stop() {
        task.withLock { $0?.cancel() }
    }
}

/// A statement's answer that the watchdog can give up on.
private protocol AbandonableWaiter: AnyObject, Sendable {
    func fail(_ error: any Error)
}

/// A continuation resumed once, by whichever of the answer and the watchdog comes first.
private final class Waiter<Value: Sendable>: AbandonableWaiter {
    private let continuation: Mutex<CheckedContinuation<Value, any Error>?>

    init(_ continuation: CheckedContinuation<Value, any Error>) {
        self.continuation = Mutex(continuation)
    }

    func resume(with result: Result<Value, any Error>) {
        continuation.withLock { $0.take() }?.resume(with: result)
    }

    func fail(_ error: any Error) {
        resume(with: .failure(error))
    }
}
