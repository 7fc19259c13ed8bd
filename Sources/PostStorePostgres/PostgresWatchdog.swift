import PostStoreNIO
import PostgresNIO
import Synchronization

/// Closes a connection when no statement of the call has made progress within the limit, and refuses statements
/// after that; a statement awaited through ``guarding(_:)`` is given up then even if PostgresNIO never answers it,
/// or as soon as its connection is seen closed at two looks in a row (a second apart).
///
/// A session's watchdog has no task of its own (a call would pay for starting and cancelling one): the process's
/// ``PostgresWatchdogPatrol`` looks at every live watchdog once a second, so a connection is closed within a second
/// after its deadline.
final class PostgresWatchdog: Sendable {
    private struct State {
        /// When the connection is closed unless a statement makes progress first; `nil` once it was closed.
        var due: ContinuousClock.Instant?
        /// The statement awaited now, if any.
        var waiter: (any AbandonableStatementWaiter)?
        /// Whether the connection was seen closed at the previous look while a statement was awaited.
        var sawClosed = false
        /// Whether a `COPY` holds the connection in copy mode (``holdCopyMode()``), where closing it would stop the
        /// process: postgres-nio 1.33.2 traps when a connection in copy mode is closed by its client.
        var holdsCopyMode = false
        /// Whether the limit passed while a `COPY` held copy mode: the connection is closed once it lets go.
        var closesAfterCopy = false
    }

    /// What the watchdog does after a look at the state.
    private enum Verdict {
        /// Nothing to do until the next look.
        case wait
        /// Nothing came within the limit: close the connection and fail the awaited statement.
        case close((any AbandonableStatementWaiter)?)
        /// The connection closed under an awaited statement that PostgresNIO did not fail: fail it.
        case abandon(any AbandonableStatementWaiter)
    }

    /// The patrol of every session's watchdog in this process.
    static let patrol = PostgresWatchdogPatrol()

    private let limit: Duration
    private let connection: PostgresConnection
    private let state: Mutex<State>

    init(limit: Duration, connection: PostgresConnection) {
        self.limit = limit
        self.connection = connection
        state = Mutex(State(due: .now + limit))
        Self.patrol.add(self)
    }

    /// Looks at the connection once, for the patrol: closes it when its deadline has passed, and fails a statement
    /// it sees closed under it at two looks in a row.
    func look() async {
        switch look(isClosed: connection.isClosed) {
        case .close(let waiter):
            Self.patrol.remove(self)
            try? await connection.close()
            waiter?.fail(PostgresSessionError.stoppedAnswering)
        case .abandon(let waiter):
            waiter.fail(PostgresSessionError.connectionLost)
        case .wait:
            break
        }
    }

    /// Decides what to do now. A statement whose connection is closed at two looks in a row is failed: PostgresNIO
    /// fails one it has sent when the connection closes, but not one that reached the connection as it closed.
    private func look(isClosed: Bool) -> Verdict {
        state.withLock { state in
            let now = ContinuousClock.now
            guard let due = state.due else {
                guard state.closesAfterCopy, !state.holdsCopyMode else { return .wait }
                state.closesAfterCopy = false
                defer { state.waiter = nil }
                return .close(state.waiter)
            }
            if now >= due {
                state.due = nil
                if state.holdsCopyMode {
                    // The copy sees the call stopped at its next look (``hasStopped``) and leaves copy mode.
                    state.closesAfterCopy = true
                    return .wait
                }
                defer { state.waiter = nil }
                return .close(state.waiter)
            }
            if isClosed, state.sawClosed, let waiter = state.waiter {
                state.waiter = nil
                return .abandon(waiter)
            }
            state.sawClosed = isClosed && state.waiter != nil
            return .wait
        }
    }

    /// Moves the deadline on; after the connection was closed, throws instead.
    func extend() throws {
        try state.withLock { state in
            guard state.due != nil else { throw PostgresSessionError.stoppedAnswering }
            state.due = .now + limit
        }
    }

    /// Whether the limit passed without progress: statements are refused and the connection is closed, or will be
    /// once a `COPY` lets go of copy mode.
    var hasStopped: Bool {
        state.withLock { $0.due == nil }
    }

    /// Keeps the connection open while a `COPY` is in copy mode, until ``releaseCopyMode()``: past the limit the
    /// watchdog then only marks the call stopped (``hasStopped``, and ``extend()`` throws), and closes the
    /// connection after the copy has let go. postgres-nio 1.33.2 stops the process when a connection in copy mode
    /// is closed by its client (scripts/RELIABILITY.md).
    ///
    /// - Throws: ``PostgresSessionError/stoppedAnswering`` when the limit has passed already.
    func holdCopyMode() throws {
        try state.withLock { state in
            guard state.due != nil else { throw PostgresSessionError.stoppedAnswering }
            state.holdsCopyMode = true
        }
    }

    /// Lets the watchdog close the connection again, at its next look if the limit passed during the copy.
    func releaseCopyMode() {
        state.withLock { $0.holdsCopyMode = false }
    }

    /// Awaits an answer of PostgresNIO, or the watchdog's verdict once the limit passes without one.
    ///
    /// Off the connection's event loop, the operation runs in a task of its own so that it can be left behind:
    /// PostgresNIO never completes a statement written after its connection closed and took its handlers down (a
    /// write from another thread reaches the loop later than the caller saw the connection open). A task left
    /// behind ends when PostgresNIO answers, if ever; it holds nothing of the store. The task starts at once on this
    /// thread (`Task.immediate`), so that the statement is sent without waiting for another thread to pick the task
    /// up.
    ///
    /// On the connection's loop (a request `poststore serve` handles there), the caller saw the connection open in
    /// the same turn of the loop that writes the statement, so PostgresNIO answers it or fails it when the
    /// connection closes: it is awaited directly, without a task of its own.
    func guarding<Value: Sendable>(
        _ operation: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        if connection.eventLoop.inEventLoop {
            if connection.isClosed { throw PostgresSessionError.connectionClosed }
            do {
                return try await operation()
            } catch  where hasStopped {
                throw PostgresSessionError.stoppedAnswering
            }
        }
        let answerExecutor = EventLoopTaskExecutor.executor(for: connection.eventLoop)
        return try await withCheckedThrowingContinuation { continuation in
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
            let answer: @Sendable () async -> Void = { [self] in
                let result: Result<Value, any Error>
                do {
                    result = .success(try await operation())
                } catch {
                    result = .failure(error)
                }
                state.withLock { if $0.waiter === waiter { $0.waiter = nil } }
                waiter.resume(with: result)
            }
            // The task starts on the caller's thread (Apple's systems have `Task.immediate` from their 2025 releases
            // on) and goes on, once answered, on the connection's event loop, which the answer wakes anyway: only
            // the caller's continuation then crosses to another thread, as when postgres-nio is awaited directly.
            if #available(macOS 26, iOS 26, tvOS 26, visionOS 26, *) {
                Task.immediate(executorPreference: answerExecutor) { await answer() }
            } else {
                Task(executorPreference: answerExecutor) { await answer() }
            }
        }
    }

    /// Ends the watch: the session is over.
    func stop() {
        Self.patrol.remove(self)
    }
}

/// Looks at every live session's watchdog once a second, from one task that runs while any is live.
final class PostgresWatchdogPatrol: Sendable {
    private struct State {
        var watchdogs: [ObjectIdentifier: PostgresWatchdog] = [:]
        var isPatrolling = false
    }

    /// How often the patrol looks (a session lasts a call: most never see a look).
    static let lookInterval = Duration.seconds(1)

    private let state = Mutex(State())

    /// Watches a session's watchdog from now on; starts the patrol when it is not running.
    func add(_ watchdog: PostgresWatchdog) {
        let starts = state.withLock { state in
            state.watchdogs[ObjectIdentifier(watchdog)] = watchdog
            defer { state.isPatrolling = true }
            return !state.isPatrolling
        }
        if starts { Task.detached { await self.patrol() } }
    }

    /// Stops watching a watchdog.
    func remove(_ watchdog: PostgresWatchdog) {
        _ = state.withLock { $0.watchdogs.removeValue(forKey: ObjectIdentifier(watchdog)) }
    }

    /// Looks at every watchdog once per interval, and ends once there is none to look at.
    private func patrol() async {
        while true {
            try? await Task.sleep(for: Self.lookInterval)
            let watchdogs = state.withLock { state in
                if state.watchdogs.isEmpty { state.isPatrolling = false }
                return Array(state.watchdogs.values)
            }
            if watchdogs.isEmpty { return }
            for watchdog in watchdogs { await watchdog.look() }
        }
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
