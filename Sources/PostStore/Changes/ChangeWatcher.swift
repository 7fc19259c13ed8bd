/// Wakes whoever waits for a store's next write: one watcher per store in a process, shared by every waiter (each
/// long-poll of `poststore serve`'s changes feed).
///
/// While anyone waits, it asks the store for its token (``PostStoreProtocol/changeToken()``, one small read) at
/// once when told of a write made in this process (``storeDidChange()``), and otherwise every `interval`; so a write
/// by another process or machine is seen within `interval`, one of this process's at once. While no one waits it runs
/// nothing.
///
/// A store in local files (``FileBackedStore``, on Linux) is read every `interval` only for ``burst`` after its files
/// change (another process writing them), and every ``idleInterval`` otherwise: waiting costs next to nothing while
/// nothing is written, and a write by another process is still seen within `interval` of its first file event.
package final class ChangeWatcher: Sendable {
    private struct Waiter {
        let after: ChangeToken
        let deadline: Duration
        let continuation: CheckedContinuation<ChangeToken?, any Error>
    }

    private struct State {
        var waiters: [Int: Waiter] = [:]
        var nextID = 0
        var isPolling = false
        /// A write in this process was announced since the last read of the token.
        var isPoked = false
        var isStopped = false
        /// The pause between two reads, cancelled to read at once.
        var pause: Task<Void, Never>?
        /// Who waits for so many waiters (``waiters(atLeast:)``).
        var countWatchers: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
        /// What tells of another process's write to the store's files, while polling.
        var monitor: FileChangeMonitor?
        /// Until when the token is read every `interval` (after the files changed).
        var burstEnd = Duration.zero
    }

    /// How long the token is read every `interval` after the store's files change: a SQLite commit is read a moment
    /// after its last file event.
    package static let burst = Duration.milliseconds(50)
    /// How often the token of a store whose files are watched is read when they have not changed: for a write no
    /// file event reports (another machine writing a shared file).
    package static let idleInterval = Duration.seconds(1)

    private let store: any PostStoreProtocol
    private let interval: Duration
    private let clock: any ClockProtocol
    private let state = LockedState(State())

    /// - Parameters:
    ///   - store: The store watched.
    ///   - interval: How often the token is read while anyone waits.
    ///   - clock: What the pauses and the waits' timeouts are measured on.
    package init(store: any PostStoreProtocol, interval: Duration, clock: any ClockProtocol) {
        self.store = store
        self.interval = interval
        self.clock = clock
    }

    /// Waits until the store's token is no longer `token`, or `timeout` passes.
    ///
    /// - Returns: The store's new token, or `nil` when the timeout passed first or the watcher was stopped.
    /// - Throws: What reading the token throws; `CancellationError` when the task is cancelled.
    package func change(after token: ChangeToken, timeout: Duration) async throws -> ChangeToken? {
        let deadline = clock.uptime() + timeout
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                enum Start {
                    case refused(Result<ChangeToken?, any Error>)
                    case waiting(startsPolling: Bool, counted: [CheckedContinuation<Void, Never>])
                }
                let start = state.withLock { state -> Start in
                    if Task.isCancelled { return .refused(.failure(CancellationError())) }
                    if state.isStopped { return .refused(.success(nil)) }
                    state.waiters[id] = Waiter(after: token, deadline: deadline, continuation: continuation)
                    defer { state.isPolling = true }
                    let waiting = state.waiters.count
                    let reached = state.countWatchers.filter { $0.count <= waiting }.map(\.continuation)
                    state.countWatchers.removeAll { $0.count <= waiting }
                    return .waiting(startsPolling: !state.isPolling, counted: reached)
                }
                switch start {
                case .refused(let result):
                    continuation.resume(with: result)
                case .waiting(let startsPolling, let counted):
                    if startsPolling { Task { await poll() } }
                    for watcher in counted { watcher.resume() }
                }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Returns once at least `count` wait at the same time: for a test that acts while requests are held.
    package func waiters(atLeast count: Int) async {
        await withCheckedContinuation { continuation in
            let reached = state.withLock { state in
                guard state.waiters.count < count else { return true }
                state.countWatchers.append((count, continuation))
                return false
            }
            if reached { continuation.resume() }
        }
    }

    /// Tells the watcher that this process has just written to the store: the token is read at once.
    package func storeDidChange() {
        state.withLock { state in
            state.isPoked = true
            return state.pause
        }?.cancel()
    }

    /// Ends every wait now, each answered `nil`, and answers every later one at once: the server is stopping.
    package func stop() {
        let waiters = state.withLock { state in
            state.isStopped = true
            defer { state.waiters = [:] }
            return state.waiters.values
        }
        for waiter in waiters { waiter.continuation.resume(returning: nil) }
    }

    /// The store's files changed: reads the token at once, and every `interval` for ``burst``.
    private func filesDidChange() {
        let now = clock.uptime()
        state.withLock { state in
            state.isPoked = true
            state.burstEnd = now + Self.burst
            return state.pause
        }?.cancel()
    }

    /// Reads the token and answers the waiters it concerns, then pauses, until no one waits.
    private func poll() async {
        let monitor = (store as? any FileBackedStore).flatMap { store in
            FileChangeMonitor(files: store.filesWrittenByWrites) { [weak self] in self?.filesDidChange() }
        }
        state.withLock { $0.monitor = monitor }
        while true {
            // A write announced from here on is one this read may miss: it makes the next read come at once.
            state.withLock { $0.isPoked = false }
            let token: Result<ChangeToken, any Error>
            do {
                token = .success(try await store.changeToken())
            } catch {
                token = .failure(error)
            }
            let now = clock.uptime()
            let (answered, pause) = state.withLock { state in
                var answered: [(Waiter, Result<ChangeToken?, any Error>)] = []
                for (id, waiter) in state.waiters {
                    let result: Result<ChangeToken?, any Error>
                    switch token {
                    case .failure(let error): result = .failure(error)
                    case .success(let token) where token != waiter.after: result = .success(token)
                    case .success where waiter.deadline <= now: result = .success(nil)
                    case .success: continue
                    }
                    answered.append((waiter, result))
                    state.waiters[id] = nil
                }
                guard let nearest = state.waiters.values.map(\.deadline).min() else {
                    state.isPolling = false
                    state.monitor?.cancel()
                    state.monitor = nil
                    return (answered, Duration?.none)
                }
                let step = state.monitor == nil || now < state.burstEnd ? interval : Self.idleInterval
                return (answered, min(step, max(nearest - now, .zero)))
            }
            for (waiter, result) in answered { waiter.continuation.resume(with: result) }
            guard let pause else { return }
            let sleeper = Task { [clock] in _ = try? await clock.sleep(for: pause) }
            let skip = state.withLock { state in
                state.pause = sleeper
                return state.isPoked
            }
            if skip { sleeper.cancel() }
            await sleeper.value
            state.withLock { $0.pause = nil }
        }
    }
}
