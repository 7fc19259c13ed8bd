public import Foundation
import PostStore

/// Bytes that arrive from elsewhere (a child's output, a socket) as a test runs, and waits for what they hold: the
/// test waits for an event, never a delay.
public final class ReceivedBytes: Sendable {
    private struct State {
        var received = Data()
        var isComplete = false
        var watchers: [Int: AsyncStream<Void>.Continuation] = [:]
        var lastWatcher = 0
    }

    private let state = LockedState(State())

    /// Nothing received yet.
    public init() {}

    /// Every byte so far, and whether that is all.
    public var snapshot: (received: Data, isComplete: Bool) {
        state.withLock { ($0.received, $0.isComplete) }
    }

    /// More bytes came.
    public func append(_ bytes: some Sequence<UInt8>) {
        let watchers = state.withLock { state in
            state.received.append(contentsOf: bytes)
            return state.watchers.values
        }
        for watcher in watchers { watcher.yield() }
    }

    /// The bytes are at their end.
    public func complete() {
        let watchers = state.withLock { state in
            state.isComplete = true
            return state.watchers.values
        }
        for watcher in watchers { watcher.yield() }
    }

    /// Waits until `find` finds what it wants in the bytes so far (given whether they are complete), and returns
    /// it; `find` looks again each time bytes come.
    ///
    /// - Parameters:
    ///   - timeout: How long to wait.
    ///   - failure: What the error says when the bytes end, or the time is up, first: given why and the bytes.
    ///   - find: What is wanted, or `nil` to wait for more.
    /// - Throws: The error `failure` makes.
    public func when<Found>(
        timeout: Duration,
        failure: (_ reason: String, _ received: Data) -> any Error,
        _ find: (Data, Bool) -> Found?
    ) async throws -> Found {
        let deadline = ContinuousClock.now + timeout
        // An element each time bytes come or end, and one at the deadline.
        let (changes, changed) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let watcher = state.withLock { state in
            state.lastWatcher += 1
            state.watchers[state.lastWatcher] = changed
            return state.lastWatcher
        }
        let timer = Task {
            try? await Task.sleep(until: deadline, clock: .continuous)
            changed.yield()
        }
        defer {
            timer.cancel()
            state.withLock { $0.watchers[watcher] = nil }
        }
        changed.yield()  // a first look at what came before
        for await _ in changes {
            let (received, isComplete) = snapshot
            if let found = find(received, isComplete) { return found }
            guard !isComplete, ContinuousClock.now < deadline else {
                throw failure(isComplete ? "it ended" : "nothing came within \(timeout)", received)
            }
        }
        throw CancellationError()  // the stream ends early only when the task is cancelled
    }
}
