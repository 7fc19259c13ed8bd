import Foundation
@_spi(FileSystem) import PostStore

/// Gives writes their turns, first come first served: an asynchronous lock, held across suspensions (an actor is
/// not: it lets another call in at each `await`).
///
/// `PostgresPostStore` orders the writes of one instance with it before they take the server's table lock (each
/// waiting there at most the lock timeout, which is for other processes' writes); `poststore serve` orders its
/// writes that read before they write (a `POST` choosing a new id). A write whose task is cancelled while it waits
/// for its turn stops waiting with `CancellationError`.
///
/// Its state is guarded by an `NSLock`, not `Synchronization.Mutex`: on Linux the thread sanitizer
/// (scripts/reliability/tsan.sh) does not see a contended `Mutex` lock (the standard library is not instrumented) and
/// reports the accesses it orders as races, while an `NSLock` is a pthread mutex, which it intercepts.
package final class WriteTurns: @unchecked Sendable {
    // @unchecked: `current` is read and written only inside `state.withLock`, which holds `lock` throughout.
    private struct State {
        var isTaken = false
        var waiting: [(id: Int, continuation: CheckedContinuation<Void, any Error>)] = []
        var lastId = 0
        /// Who awaits ``WriteTurns/untilWaiting(_:)``: resumed once `waiting` holds at least `count` writes.
        var watchers: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

        /// Removes and returns the watchers whose count of waiting writes has come.
        mutating func takeWatchers() -> [CheckedContinuation<Void, Never>] {
            let count = waiting.count
            defer { watchers.removeAll { $0.count <= count } }
            return watchers.filter { $0.count <= count }.map(\.continuation)
        }
    }

    private let lock = NSLock()
    private var current = State()
    private var state: Guard { Guard(turns: self) }

    /// `withLock` over `current`, as `Mutex` spells it.
    private struct Guard {
        let turns: WriteTurns

        func withLock<Result>(_ body: (inout State) -> Result) -> Result {
            turns.lock.lock()
            defer { turns.lock.unlock() }
            return body(&turns.current)
        }
    }

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
                let (cancelled, watchers): (Bool, [CheckedContinuation<Void, Never>]) = state.withLock { state in
                    guard !Task.isCancelled else { return (true, []) }
                    state.waiting.append((id, continuation))
                    return (false, state.takeWatchers())
                }
                if cancelled { continuation.resume(throwing: CancellationError()) }
                for watcher in watchers { watcher.resume() }
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

    /// Returns once at least `count` writes wait for their turn (at once if they already do).
    ///
    /// For tests that act on a waiting write, such as cancelling it: when this returns, the write is queued, and
    /// only ``give()`` or its task's cancellation ends its wait. It is not cancellable: `count` writes must come.
    ///
    /// - Parameter count: How many waiting writes to wait for.
    package func untilWaiting(_ count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let isThere = state.withLock { state in
                guard state.waiting.count < count else { return true }
                state.watchers.append((count, continuation))
                return false
            }
            if isThere { continuation.resume() }
        }
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
