import PostgresNIO
import Synchronization

extension PostgresPostStore {
    /// Takes the store's write lock in the session's transaction: a table lock on `posts` that writers of the
    /// store take in turn (`SHARE ROW EXCLUSIVE` conflicts with itself) and readers never wait for, waiting at most
    /// the lock timeout (then PostgreSQL's `lock_not_available`, reported as `storeBusy`).
    ///
    /// A task cancelled while it waits stops waiting: the server is asked to cancel the backend's statement
    /// (`pg_cancel_backend`, from another connection), again until the wait has ended, as a request can arrive
    /// before the statement does. Closing the connection instead would race with the statements that follow.
    func takeWriteLock(in session: PostgresSession) async throws {
        let (backend, _) = try await session.rows(
            "SELECT pg_backend_pid(), set_config('lock_timeout', \(String(Self.milliseconds(lockTimeout))), true)",
            as: (Int32, String).self
        )[0]
        let waiting = LockWait()
        defer { waiting.end() }
        try await withTaskCancellationHandler {
            try Task.checkCancellation()
            try await session.execute("LOCK TABLE \(unescaped: names.posts) IN SHARE ROW EXCLUSIVE MODE")
        } onCancel: {
            Task { [client = clients.current] in
                while waiting.isWaiting {
                    _ = try? await client.query("SELECT pg_cancel_backend(\(backend))").collectAll()
                    try? await Task.sleep(for: .milliseconds(50))
                }
            }
        }
    }
}

/// Whether a write is still waiting for the lock, shared with the task that cancels the wait.
private final class LockWait: Sendable {
    private let waiting = Mutex(true)

    var isWaiting: Bool { waiting.withLock { $0 } }

    func end() { waiting.withLock { $0 = false } }
}

extension PostgresRowSequence {
    /// Reads every row, so that the statement is finished before the connection goes back to the pool.
    fileprivate func collectAll() async throws -> Int {
        var count = 0
        for try await _ in self { count += 1 }
        return count
    }
}
