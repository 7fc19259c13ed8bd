public import Foundation
public import PostStore
import Synchronization

/// A clock for tests: it never waits. `sleep(for:)` records the duration and moves the clock forward by it at
/// once, so waits are checked against ``sleeps``, not wall time; ``now()`` starts at a fixed date, so the time a
/// sync records is known.
///
/// For example:
///
/// ```swift
/// let clock = TestClock()
/// let store = InMemoryPostStore()
/// let sync = SyncService(dataService: StubPostDataService(), store: store, clock: clock)
/// _ = try await sync.sync()
/// #expect(try await store.syncStates().first?.syncedAt == clock.now())
/// ```
public final class TestClock: ClockProtocol {
    private struct State {
        var now: Date
        var uptime: Duration = .zero
        var sleeps: [Duration] = []
    }

    private let state: Mutex<State>

    /// Creates a clock.
    ///
    /// - Parameter now: The date it starts at; by default 2027-01-15T08:00:00Z.
    public init(now: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        state = Mutex(State(now: now))
    }

    /// Every duration slept so far, in order.
    public var sleeps: [Duration] { state.withLock { $0.sleeps } }

    public func now() -> Date { state.withLock { $0.now } }

    public func uptime() -> Duration { state.withLock { $0.uptime } }

    /// Moves the clock forward without a sleep.
    ///
    /// - Parameter duration: How far.
    public func advance(by duration: Duration) {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        state.withLock { state in
            state.uptime += duration
            state.now += seconds
        }
    }

    /// Records the sleep and advances the clock by it, without waiting.
    ///
    /// - Parameter duration: How long the caller wanted to wait.
    /// - Throws: `CancellationError` when the calling task is cancelled.
    public func sleep(for duration: Duration) async throws {
        try Task.checkCancellation()
        state.withLock { $0.sleeps.append(duration) }
        advance(by: duration)
    }
}
