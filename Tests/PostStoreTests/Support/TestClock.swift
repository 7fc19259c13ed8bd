import Foundation
import Synchronization

@testable import PostStore

/// A clock that never waits: `sleep` records the duration and moves the clock forward by it at once, so retry
/// schedules are checked against recorded sleeps, not wall time.
final class TestClock: ClockProtocol {
    private struct State {
        var now: Date
        var uptime: Duration = .zero
        var sleeps: [Duration] = []
    }

    private let state: Mutex<State>

    init(now: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        state = Mutex(State(now: now))
    }

    /// Every duration slept so far, in order.
    var sleeps: [Duration] { state.withLock { $0.sleeps } }

    func now() -> Date { state.withLock { $0.now } }

    func uptime() -> Duration { state.withLock { $0.uptime } }

    /// Moves the clock forward without a sleep.
    func advance(by duration: Duration) {
        state.withLock { state in
            state.uptime += duration
            state.now += Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        }
    }

    func sleep(for duration: Duration) async throws {
        try Task.checkCancellation()
        state.withLock { $0.sleeps.append(duration) }
        advance(by: duration)
    }
}
