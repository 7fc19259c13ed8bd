import Foundation
import PostStore
import PostStoreJSONFile
import PostStoreSQLite
import PostStoreTestSupport
import Testing

#if os(Linux)
/// A held changes request over a store in files wakes at another connection's write from the file system alone:
/// while it waits, the watcher reads the store once and then sleeps its idle interval, which the clock here makes
/// last until cancelled (or ``hangLimit``). Only a file event can cut that sleep short, so the waiter's answer, with
/// no sleep run out, proves the event.
@Suite struct FileWakeTests {
    /// Each engine in files, and how it opens a store at a path (twice: the watched one and another writer).
    static let engines: [(name: String, open: @Sendable (String) throws -> any PostStoreProtocol)] = [
        ("posts.sqlite", { try SQLitePostStore(path: $0) }),
        ("posts.json", { try JSONFilePostStore(path: $0) }),
    ]

    @Test("another connection's write wakes the watcher, which otherwise sleeps", arguments: engines.indices)
    func anotherConnectionsWriteWakesTheWatcher(engine: Int) async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file(Self.engines[engine].name)
        let watched = try Self.engines[engine].open(path)
        let writer = try Self.engines[engine].open(path)
        let clock = LongSleepsUntilCancelledClock()
        let watcher = ChangeWatcher(store: watched, interval: .milliseconds(5), clock: clock)
        defer { watcher.stop() }
        let before = try await watched.changeToken()
        async let answered = watcher.change(after: before, timeout: hangLimit)
        await watcher.waiters(atLeast: 1)
        await clock.firstSleep()
        #expect(clock.sleeps == [ChangeWatcher.idleInterval])
        _ = try await writer.upsert([Post(userId: 1, id: 1_000_001, title: "written elsewhere", body: "b")])
        let token = try await answered
        #expect(token == (try await writer.changeToken()))
        #expect(clock.longSleepsRunOut == 0, "the watcher woke at its idle interval, not at a file event")
    }
}

/// A clock whose pauses of up to 0.1 s last as long as asked, and longer ones until cancelled or ``hangLimit``.
///
/// The short pauses are the watcher's own reads every `interval` after a file event, and they must last: a SQLite
/// commit is visible only after its last file event, so reads that all came at once could miss it. The long pause
/// is the idle interval, which only the event may end; ``hangLimit`` bounds it, as every hang in the tests is.
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
#endif
