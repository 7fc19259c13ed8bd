package import PostStore
import PostgresNIO
import Synchronization

/// Observation of a PostgreSQL store, from any machine: every write transaction ends with one `NOTIFY` on the
/// store's channel carrying the store's new change token (its id and revision) (one per transaction, never one per row:
/// PostgreSQL serializes the commits of notifying transactions on one lock), and the store's watcher `LISTEN`s on a
/// connection of the pool while anyone observes.
extension PostgresPostStore: ObservedStore {
    package func makeCommitProbe() -> any CommitProbe {
        PostgresCommitProbe(store: self)
    }

    /// Sends the write's notification, delivered to listeners when the transaction commits (and never if it rolls
    /// back).
    func notifyObservers(in session: PostgresSession) async throws {
        try await session.execute(
            "SELECT pg_notify(\(names.changesChannel), store_id || '-' || revision) FROM \(unescaped: names.storeRevision)"
        )
    }
}

/// The probe of a ``PostgresPostStore``: a count of the notifications received on the store's channel, and of the
/// times listening began (a notification sent while nobody listened is lost, so each start counts as a commit and
/// the store is read again).
///
/// A lost connection is listened on again, after 0.25 s and doubling; after ``PostgresPostStore/attempts`` failures
/// in a row the mark throws the last failure, which ends the observations.
final class PostgresCommitProbe: CommitProbe {
    private struct State {
        var mark = 0
        /// The token the last notification carried, `nil` after listening began.
        var token: ChangeToken?
        var failure: (any Error)?
    }

    private let store: PostgresPostStore
    private let state = Mutex(State())

    init(store: PostgresPostStore) {
        self.store = store
    }

    func commitMark() throws -> Int {
        try state.withLock { state in
            if let failure = state.failure { throw failure }
            return state.mark
        }
    }

    func notifiedToken(atMark mark: Int) -> ChangeToken? {
        state.withLock { $0.mark == mark ? $0.token : nil }
    }

    func startNotifications(onCommit: @escaping @Sendable () -> Void) -> (any CommitNotifications)? {
        ListeningTask(task: Task { await listen(onCommit: onCommit) })
    }

    var notificationPrecedesCommit: Bool { false }

    var pollInterval: Duration { .seconds(1) }

    var quietInterval: Duration? { nil }

    /// Listens until cancelled, or until it fails too often.
    private func listen(onCommit: @escaping @Sendable () -> Void) async {
        var failures = 0
        while !Task.isCancelled {
            do {
                try await store.prepared()
                try await store.withConnectionOfItsOwn { connection in
                    try await connection.listen(on: store.names.changesChannel) { notifications in
                        failures = 0
                        counted(token: nil, onCommit)
                        for try await notification in notifications {
                            counted(token: ChangeToken(notification.payload), onCommit)
                        }
                    }
                }
            } catch {
                guard !Task.isCancelled else { return }
                failures += 1
                guard failures < PostgresPostStore.attempts else {
                    let failure = PostgresFailure.storeError(error, server: store.server, attempts: failures)
                    state.withLock { $0.failure = failure }
                    onCommit()
                    return
                }
                try? await Task.sleep(for: .milliseconds(250) * (1 << (failures - 1)))
            }
        }
    }

    private func counted(token: ChangeToken?, _ onCommit: @Sendable () -> Void) {
        state.withLock { state in
            state.mark += 1
            state.token = token
        }
        onCommit()
    }

    /// The listening, stopped by cancelling its task (which sends `UNLISTEN` and gives the connection back).
    private struct ListeningTask: CommitNotifications {
        let task: Task<Void, Never>

        func stop() {
            task.cancel()
        }
    }
}
