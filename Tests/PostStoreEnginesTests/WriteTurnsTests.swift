import PostStore
import PostStoreEngines
import Synchronization
import Testing

/// Writes take their turns one at a time, first come first served; a cancelled waiter stops waiting.
@Suite struct WriteTurnsTests {
    @Test func oneWriteAtATime() async throws {
        let turns = WriteTurns()
        let inside = Inside()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<20 {
                group.addTask {
                    try await turns.take()
                    inside.counts.withLock {
                        $0.now += 1
                        $0.most = max($0.most, $0.now)
                    }
                    await Task.yield()
                    inside.counts.withLock { $0.now -= 1 }
                    turns.give()
                }
            }
            try await group.waitForAll()
        }
        #expect(inside.counts.withLock { $0.most } == 1)
    }

    @Test func aWriteCancelledWhileWaitingForItsTurnStopsWaitingAndTheTurnPassesOn() async throws {
        let turns = WriteTurns()
        try await turns.take()
        let waiting = Task { try await turns.take() }
        await turns.untilWaiting(1)  // queued: only its cancellation handler can end its wait now

        waiting.cancel()  // runs its cancellation handler before it returns
        turns.give()  // to the next waiting write: none, if the cancellation took the waiter out of the queue

        let outcome = await waiting.result
        #expect(throws: CancellationError.self) { try outcome.get() }
        if case .success = outcome { turns.give() }  // it was given the turn: give it back so the test ends
        let next = Task { try await turns.take() }
        try await next.value  // the turn was free: the cancelled write does not hold it
        turns.give()
    }
}

/// How many writes hold a turn now, and the most that ever did at once.
private final class Inside: Sendable {
    let counts = Mutex((now: 0, most: 0))
}
