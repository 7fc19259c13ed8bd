public import Foundation

/// Time as PostStore's services see it: the date to record, a monotonic reading to measure durations, and a way
/// to wait.
///
/// ``SystemClock`` is the live implementation. Tests inject a clock that advances only when told, so retry and
/// backoff schedules are checked against it and no test really sleeps.
public protocol ClockProtocol: Sendable {
    /// The current date, as recorded in a ``SyncState``.
    ///
    /// - Returns: The wall-clock time now.
    func now() -> Date

    /// A monotonic reading: the time since some fixed moment, for measuring how long something took.
    ///
    /// - Returns: A duration that never goes backwards, even when the wall clock is set back.
    func uptime() -> Duration

    /// Waits for a duration.
    ///
    /// - Parameter duration: How long to wait.
    /// - Throws: `CancellationError` when the calling task is cancelled while waiting.
    func sleep(for duration: Duration) async throws
}
