package import Foundation

/// The real clock: `Date()` for dates, `ContinuousClock` for durations and waits.
package struct SystemClock: ClockProtocol {
    private let origin = ContinuousClock.now

    /// Creates the clock.
    package init() {}

    package func now() -> Date { Date() }

    package func uptime() -> Duration { ContinuousClock.now - origin }

    package func sleep(for duration: Duration) async throws {
        try await Task.sleep(for: duration)
    }
}
