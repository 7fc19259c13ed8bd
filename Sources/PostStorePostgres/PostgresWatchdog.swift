import PostgresNIO
import Synchronization

/// Closes a connection when no statement of the call has made progress within the limit, and refuses statements
/// after that; a statement awaited through ``guarding(_:)`` is given up then even if PostgresNIO never answers it,
/// or as soon as its connection is seen closed at two looks in a row (a second apart).
final class PostgresWatchdog: Sendable {
    private struct State {
        /// When the connection is closed unless a statement makes progress first; `nil` once it was closed.
        var due: ContinuousClock.Instant?
        /// The statement awaited now, if any.
        var waiter: (any AbandonableStatementWaiter)?
        /// Whether the connection was seen closed at the previous look while a statement was awaited.
        var sawClosed = false
    }

    /// What the watchdog does after a look at the state.
    private enum Verdict {
        /// Wait until the deadline, or the next look at the connection.
        case wait(ContinuousClock.Instant)
        /// Nothing came within the limit: close the connection and fail the awaited statement.
        case close((any AbandonableStatementWaiter)?)
        /// The connection closed under an awaited statement that PostgresNIO did not fail: fail it.
        case abandon(any AbandonableStatementWaiter)
    }

    /// How often the watchdog looks at the connection (a session lasts a call: most never see the first look).
    private static let lookInterval = Duration.seconds(1)

    private let limit: Duration
    private let state: Mutex<State>
    private let task: Mutex<Task<Void, Never>?> = Mutex(nil)

    init(limit: Duration, connection: PostgresConnection) {
        self.limit = limit
        state = Mutex(State(due: .now + limit))
        let started = Task { [self] in
            while !Task.isCancelled {
                switch self.look(isClosed: connection.isClosed) {
                case .close(let waiter):
                    try? await connection.close()
                    waiter?.fail(PostgresSessionError.stoppedAnswering)
                    return
                case .abandon(let waiter):
                    waiter.fail(PostgresSessionError.connectionLost)
                case .wait(let until):
                    try? await Task.sleep(until: until, clock: .continuous)
                }
            }
        }
        task.withLock { $0 = started }
    }

    /// Decides what to do now. A statement whose connection is closed at two looks in a row is failed: PostgresNIO
    /// fails one it has sent when the connection closes, but not one that reached the connection as it closed.
    private func look(isClosed: Bool) -> Verdict {
        state.withLock { state in
            let now = ContinuousClock.now
            guard let due = state.due else { return .wait(now + Self.lookInterval) }
            if now >= due {
                state.due = nil
                defer { state.waiter = nil }
                return .close(state.waiter)
            }
            if isClosed, state.sawClosed, let waiter = state.waiter {
                state.waiter = nil
                return .abandon(waiter)
            }
            state.sawClosed = isClosed && state.waiter != nil
            return .wait(min(due, now + Self.lookInterval))
        }
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
            let waiter = StatementWaiter(continuation)
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
protocol AbandonableStatementWaiter: AnyObject, Sendable {
    func fail(_ error: any Error)
}

/// A continuation resumed once, by whichever of the answer and the watchdog comes first.
final class StatementWaiter<Value: Sendable>: AbandonableStatementWaiter {
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
