import Synchronization

/// Gives writes their turns, first come first served: an asynchronous lock, held across suspensions (an actor is
/// not: it lets another call in at each `await`).
///
/// `PostgresPostStore` orders the writes of one instance with it before they take the server's table lock (each
/// waiting there at most the lock timeout, which is for other processes' writes); `poststore serve` orders its
/// writes that read before they write (a `POST` choosing a new id). A write whose task is cancelled while it waits
/// for its turn stops waiting with `CancellationError`.
package final class WriteTurns: Sendable {
    private struct State {
        var isTaken = false
        var waiting: [(id: Int, continuation: CheckedContinuation<Void, any Error>)] = []
        var lastId = 0
    }

    private let state = Mutex(State())

    /// No turn taken.
    package init() {}

    /// Waits for the turn; the caller gives it back with ``give()``.
    ///
    /// - Throws: `CancellationError` when the task is cancelled before its turn comes.
    package func take() async throws {
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
    package func give() {
        let next = state.withLock { state in
            guard !state.waiting.isEmpty else {
                state.isTaken = false
                return nil as CheckedContinuation<Void, any Error>?
            }
            return state.waiting.removeFirst().continuation
        }
        next?.resume()
    }

    /// Runs `body` in a turn of its own.
    ///
    /// - Throws: What `body` throws, or `CancellationError` when the task is cancelled before its turn comes.
    package func inTurn<Result: Sendable>(_ body: () async throws -> Result) async throws -> Result {
        try await take()
        defer { give() }
        return try await body()
    }
}
