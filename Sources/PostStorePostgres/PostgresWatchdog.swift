import PostStore
import PostStoreNIO
import PostgresNIO
import Synchronization

/// Closes a connection when no statement of the call has made progress within the limit, and refuses statements
/// after that; a statement awaited through ``guarding(_:)`` then fails, as PostgresNIO fails every statement
/// pending on a connection that closes.
///
/// A session's watchdog has no task of its own (a call would pay for starting and cancelling one): the process's
/// ``PostgresWatchdogPatrol`` looks at every live watchdog once a second, so a connection is closed within a second
/// after its deadline.
final class PostgresWatchdog: Sendable {
    private struct State {
        /// When the connection is closed unless a statement makes progress first; `nil` once it was closed.
        var due: ContinuousClock.Instant?
        /// Whether a `COPY` holds the connection in copy mode (``holdCopyMode()``), where closing it would stop the
        /// process: postgres-nio 1.33.2 traps when a connection in copy mode is closed by its client.
        var holdsCopyMode = false
        /// Whether the limit passed while a `COPY` held copy mode: the connection is closed once it lets go.
        var closesAfterCopy = false
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

    /// Looks at the connection once, for the patrol: closes it when its deadline has passed (or, past it, once a
    /// `COPY` let go of copy mode).
    func look() async {
        guard closesNow() else { return }
        Self.patrol.remove(self)
        try? await connection.close()
    }

    /// Whether the connection is to be closed now.
    private func closesNow() -> Bool {
        state.withLock { state in
            guard let due = state.due else {
                guard state.closesAfterCopy, !state.holdsCopyMode else { return false }
                state.closesAfterCopy = false
                return true
            }
            guard ContinuousClock.now >= due else { return false }
            state.due = nil
            // The copy sees the call stopped at its next look (``hasStopped``) and leaves copy mode.
            state.closesAfterCopy = state.holdsCopyMode
            return !state.holdsCopyMode
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
    /// is closed by its client (scripts/reliability/RELIABILITY.md).
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

    /// Awaits an answer of PostgresNIO, which fails it when the watchdog closes the connection.
    ///
    /// The operation runs on the connection's event loop, where the caller sees the connection open in the same
    /// turn of the loop that writes the statement: PostgresNIO then answers it, or fails it when the connection
    /// closes. A statement written from another thread reaches the loop later than the caller saw the connection
    /// open, and PostgresNIO never completes one that arrives after its connection closed and took its handlers
    /// down. Running there costs no more thread switches than awaiting PostgresNIO from elsewhere (the statement is
    /// written on the loop, and its answer comes there), and no task of its own.
    @concurrent
    func guarding<Value: Sendable>(
        _ operation: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        if connection.eventLoop.inEventLoop { return try await onLoop(operation) }
        return try await withTaskExecutorPreference(EventLoopTaskExecutor.executor(for: connection.eventLoop)) {
            try await onLoop(operation)
        }
    }

    /// Runs the operation on the connection's loop, where the caller is already.
    private func onLoop<Value: Sendable>(
        _ operation: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        // A nonisolated call with the loop's executor as its preference runs on the loop (SE-0417).
        assert(connection.eventLoop.inEventLoop, "a statement is awaited on its connection's event loop")
        if connection.isClosed { throw PostgresSessionError.connectionClosed }
        do {
            return try await operation()
        } catch  where hasStopped {
            throw PostgresSessionError.stoppedAnswering
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

    /// An `NSLock` (``LockedState``), not a `Mutex`: every session adds and removes itself here, and the thread
    /// sanitizer does not see a contended `Mutex`, so it reported the accesses this lock orders as races.
    private let state = LockedState(State())

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
