public import Foundation

/// The real clock: `Date()` for dates, `ContinuousClock` for durations and waits.
public struct SystemClock: ClockProtocol {
    private let origin = ContinuousClock.now

    /// Creates the clock.
    public init() {}

    public func now() -> Date { Date() }

    public func uptime() -> Duration { ContinuousClock.now - origin }

    public func sleep(for duration: Duration) async throws {
        try await Task.sleep(for: duration)
    }
}
