public import Foundation

/// The real clock: `Date()` for dates, `ContinuousClock` for durations and waits.
///
/// Public beside ``ClockProtocol`` so that an app that assembles its own graph
/// (``PostStoreDependencies/init(store:dataService:clock:logger:)``) has the live clock to pass.
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
