import Foundation
public import PostStore
public import Testing

/// Expects a ``ChangeWatcher`` over `watched` to learn of a write made through `writer` (another connection to the
/// same files, as another process is) from the file system alone: while it waits, the watcher reads the store
/// once and then sleeps its idle interval, which the clock here makes last until cancelled (or ``hangLimit``).
/// Only a file event can cut that sleep short, so the waiter's answer, with no sleep run out, proves the event.
///
/// - Parameters:
///   - watched: The store watched (a ``FileBackedStore``).
///   - writer: Another store over the same files, which writes one post.
public func expectWatcherWokenByFiles(
    watched: any PostStoreProtocol,
    writer: any PostStoreProtocol,
    sourceLocation: SourceLocation = #_sourceLocation
) async throws {
    let clock = LongSleepsUntilCancelledClock()
    let watcher = ChangeWatcher(store: watched, interval: .milliseconds(5), clock: clock)
    defer { watcher.stop() }
    let before = try await watched.changeToken()
    async let answered = watcher.change(after: before, timeout: hangLimit)
    await watcher.waiters(atLeast: 1)
    await clock.firstSleep()
    #expect(clock.sleeps == [ChangeWatcher.idleInterval], sourceLocation: sourceLocation)
    _ = try await writer.upsert([Post(userId: 1, id: 1_000_001, title: "written elsewhere", body: "b")])
    let token = try await answered
    #expect(token == (try await writer.changeToken()), sourceLocation: sourceLocation)
    #expect(clock.longSleepsRunOut == 0, "the watcher woke at its idle interval, not at a file event")
}

/// A clock whose pauses of up to 0.1 s last as long as asked, and longer ones until cancelled or ``hangLimit``.
final class LongSleepsUntilCancelledClock: ClockProtocol {
    private struct State {
        var sleeps: [Duration] = []
        var longSleepsRunOut = 0
        var sleepWatchers: [CheckedContinuation<Void, Never>] = []
    }

    private let state = LockedState(State())
    private let start = ContinuousClock.now

    /// Every pause asked for, in order.
    var sleeps: [Duration] { state.withLock { $0.sleeps } }
    /// How many long pauses lasted to ``hangLimit``.
    var longSleepsRunOut: Int { state.withLock { $0.longSleepsRunOut } }

    func now() -> Date { Date() }

    func uptime() -> Duration { ContinuousClock.now - start }

    func sleep(for duration: Duration) async throws {
        let watchers = state.withLock { state in
            state.sleeps.append(duration)
            defer { state.sleepWatchers = [] }
            return state.sleepWatchers
        }
        for watcher in watchers { watcher.resume() }
        guard duration > .milliseconds(100) else { return try await Task.sleep(for: duration) }
        try await Task.sleep(for: hangLimit)
        state.withLock { $0.longSleepsRunOut += 1 }
    }

    /// Returns once a pause has been asked for.
    func firstSleep() async {
        await withCheckedContinuation { continuation in
            let asked = state.withLock { state in
                if state.sleeps.isEmpty { state.sleepWatchers.append(continuation) }
                return !state.sleeps.isEmpty
            }
            if asked { continuation.resume() }
        }
    }
}
