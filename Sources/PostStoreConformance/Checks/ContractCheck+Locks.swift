import PostStore
import PostStoreTesting
import Testing

extension ContractCheck {
    /// A write waits for another process's write lock, then succeeds.
    ///
    /// A real lock held for a real time: the writer must still be waiting when it is released.
    static let waitsForALock = ContractCheck(
        "waitsForALock",
        "A write waits for another process's write lock, then succeeds."
    ) { store, run async throws in
        let lock = try await run.holdWriteLock()
        let start = ContinuousClock.now
        let writer = Task { try await store.upsert(SamplePosts.make(count: 2)) }
        try await Task.sleep(for: .milliseconds(300))
        try await lock.release()
        #expect(try await writer.value == WriteSummary(inserted: 2))
        #expect(ContinuousClock.now - start >= .milliseconds(300))
        #expect(try await store.count() == 2)
    }

    /// A lock held past the timeout is reported as a busy store, and nothing is written.
    ///
    /// The timeout is one second, not less: a server may hold a table's lock for a moment of its own (PostgreSQL's
    /// autovacuum gives way to a waiting writer only after its `deadlock_timeout`, one second), and the write after
    /// the release must not fail for that.
    static let lockTimeout = ContractCheck(
        "lockTimeout",
        "A lock held past the lock timeout is reported as storeBusy, and nothing is written.",
        storeOptions: ContractStoreOptions(lockTimeout: .seconds(1))
    ) { store, run async throws in
        let lock = try await run.holdWriteLock()
        let error = await #expect(throws: PostStoreError.self) { try await store.upsert(SamplePosts.make(count: 2)) }
        #expect(error?.code == .storeBusy)
        try await lock.release()
        try await expectEmptyAndWritable(store)
    }

    /// Writers waiting for a lock leave Swift's threads free for the task that releases it.
    ///
    /// Waits that blocked their threads (six writers, two threads on a small machine) would hold the release back
    /// until a writer gave up after its timeout, and that writer would fail with `storeBusy`. The verdict is the
    /// writers' results, not the time taken: other tests may keep the pool's threads busy for seconds at once, and for
    /// over a minute in all under a thread sanitizer (a 90-second timeout failed there), but not for ten minutes.
    static let waitingWritersDoNotStarveThePool = ContractCheck(
        "waitingWritersDoNotStarveThePool",
        "Writers waiting for a lock leave Swift's threads free for the task that releases it.",
        storeOptions: .patient
    ) { store, run async throws in
        var stores = [store]
        for _ in 1..<6 {
            stores.append(try await run.secondInstance())
        }
        let lock = try await run.holdWriteLock()
        let writers = stores.enumerated().map { offset, store in
            Task { try await store.upsert(SamplePosts.make(count: 1, firstId: offset + 1)) }
        }
        try await Task.sleep(for: .milliseconds(100))
        try await lock.release()
        for writer in writers { #expect(try await writer.value == WriteSummary(inserted: 1)) }
        #expect(try await stores[0].count() == 6)
    }

    /// A write waiting for another process's lock throws `CancellationError` when its task is cancelled, and writes
    /// nothing.
    ///
    /// The one exception to "only `PostStoreError`" in `PostStoreProtocol`'s contract. The write's lock timeout is
    /// far longer than the check, so only the cancellation can end its wait.
    static let aWaitingWriteEndsWhenItsTaskIsCancelled = ContractCheck(
        "aWaitingWriteEndsWhenItsTaskIsCancelled",
        "A write waiting for another process's lock throws CancellationError when its task is cancelled.",
        storeOptions: ContractStoreOptions(lockTimeout: .seconds(600))
    ) { store, run async throws in
        let lock = try await run.holdWriteLock()
        let start = ContinuousClock.now
        let writer = Task { try await store.upsert(SamplePosts.make(count: 2)) }
        try await Task.sleep(for: .milliseconds(100))
        writer.cancel()
        await #expect(throws: CancellationError.self) { try await writer.value }
        // Half the lock's timeout: the test runner's busy pool once delayed the cancelled write's end past two
        // minutes (the whole suite under the thread sanitizer on two cores).
        #expect(ContinuousClock.now - start < .seconds(300), "the write ended when cancelled, not at its timeout")
        try await lock.release()
        try await expectEmptyAndWritable(store)
    }
}
