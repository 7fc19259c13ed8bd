import Synchronization

/// Gives the writes of one store instance their turns, first come first served, before they take the server's lock.
///
/// Writers of a store take turns through a table lock on the server, each waiting at most the lock timeout; without
/// turns here, the writes of one busy instance would wait for each other on the server and spend that timeout,
/// which is for other processes' writes (the other engines serialize an instance's calls in the process too). A
/// write whose task is cancelled while it waits for its turn stops waiting with `CancellationError`.
final class PostgresWriteTurns: Sendable {
    private struct State {
        var isTaken = false
        var waiting: [(id: Int, continuation: CheckedContinuation<Void, any Error>)] = []
        var lastId = 0
    }

    private let state = Mutex(State())

    /// Waits for the turn; the caller gives it back with ``give()``.
    ///
    /// - Throws: `CancellationError` when the task is cancelled before its turn comes.
    func take() async throws {
        let id: Int? = state.withLock { state in
            guard state.isTaken else {
                state.isTaken = true
                return nil
            }
            state.lastId += 1
            return state.lastId
        }
        guard let id else { return }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let cancelled = state.withLock { state in
                    guard !Task.isCancelled else { return true }
                    state.waiting.append((id, continuation))
                    return false
                }
                if cancelled { continuation.resume(throwing: CancellationError()) }
            }
        } onCancel: {
            let waiter = state.withLock { state in
                state.waiting.firstIndex { $0.id == id }.map { state.waiting.remove(at: $0).continuation }
            }
            waiter?.resume(throwing: CancellationError())
        }
    }

    /// Gives the turn to the next waiting write, if any.
    func give() {
        let next = state.withLock { state in
            guard !state.waiting.isEmpty else {
                state.isTaken = false
                return nil as CheckedContinuation<Void, any Error>?
            }
            return state.waiting.removeFirst().continuation
        }
        next?.resume()
    }
}
