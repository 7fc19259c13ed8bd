/// Wakes whoever waits for a store's next commit: one watcher per store in a process, shared by every waiter (the
/// store's observers, or each long-poll of `poststore serve`'s changes feed).
///
/// While anyone waits it reads the store's commit mark (``CommitProbe/commitMark()``, microseconds) and, when the
/// mark has moved, the store's token (``PostStoreProtocol/changeToken()``, one small read, unless a notification told
/// it), then answers the waiters whose stamp is behind. It reads at once when told of a commit: by the store itself
/// (``storeDidChange()``, a commit of this process) or by the probe's notifications (another process or machine). A
/// notification that may come before its commit (file events) starts a burst: reads every `interval` for ``burst``
/// after the last notification, less often while the mark stays where it was (a long write, such as a sync, makes
/// notifications all along). Quiet, it reads only every ``CommitProbe/quietInterval`` (or ``CommitProbe/pollInterval``
/// where there is no notification). Under a stream of writes it answers a new stamp at most every ``answerGap``. While
/// no one waits it runs nothing and holds no notification.
package final class ChangeWatcher: Sendable {
    /// What a waiter waits for.
    package enum Concern: Sendable {
        /// A commit that changed posts: the token moved.
        case posts
        /// Any commit, sync states included: the mark moved.
        case anyCommit
    }

    private struct Waiter {
        let after: StoreStamp
        let concern: Concern
        let deadline: Duration?
        let continuation: CheckedContinuation<StoreStamp?, any Error>

        func isBehind(_ stamp: StoreStamp) -> Bool {
            switch concern {
            case .posts: stamp.token != after.token
            case .anyCommit: stamp != after
            }
        }
    }

    private struct State {
        var waiters: [Int: Waiter] = [:]
        var nextID = 0
        var isPolling = false
        /// A commit was announced since the last read of the mark.
        var wasNotified = false
        var isStopped = false
        /// The last stamp read, while the notifications run: a mark equal to its mark means the same token.
        var last: StoreStamp?
        /// The pause between two reads, cancelled to read at once.
        var pause: Task<Void, Never>?
        /// Who waits for so many waiters (``waiters(atLeast:)``).
        var countWatchers: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
        /// The probe's notifications, while polling.
        var notifications: (any CommitNotifications)?
        /// Until when the mark is read often (after a notification that comes before its commit).
        var burstEnd = Duration.zero
        /// The pause between two reads in a burst: `interval` for ``steadyBurst``, then doubled by each read that
        /// finds the mark where it was, up to ``longestBurstStep`` (a long write, such as a sync, makes notifications
        /// all along its transaction).
        var burstStep = Duration.zero
        /// When the burst began, or the mark last moved in it.
        var burstStart = Duration.zero
        /// When waiters were last answered with a new stamp.
        var lastAnswered: Duration?
    }

    /// How long the mark is read every `interval` after a notification of a commit: a SQLite commit is visible a moment
    /// after its last file event.
    static let burst = Duration.milliseconds(50)
    /// How often a store whose files are watched is read when they have not changed: for a write no file event
    /// reports (another machine writing a shared file).
    package static let idleInterval = Duration.seconds(1)
    /// How long a pause lasts when nothing but a notification or a deadline can end it.
    private static let untilWoken = Duration.seconds(3_600)
    /// The longest pause between two reads in a burst of notifications.
    static let longestBurstStep = Duration.milliseconds(16)
    /// How long a burst reads every `interval` before its reads come less often: a commit is visible within a few
    /// milliseconds of its first file event.
    static let steadyBurst = Duration.milliseconds(8)
    /// The shortest time between two answers of a new stamp: under a stream of writes, each observer reads the
    /// store at most every 20 ms, not once per write; the first write after a quiet time is answered at once.
    static let answerGap = Duration.milliseconds(20)

    private let store: any PostStoreProtocol
    private let probe: any CommitProbe
    private let interval: Duration
    private let clock: any ClockProtocol
    private let state = LockedState(State())

    /// - Parameters:
    ///   - store: The store watched.
    ///   - probe: How its commits are noticed.
    ///   - interval: How often the mark is read after a notification.
    ///   - clock: What the pauses and the waits' timeouts are measured on.
    init(
        store: any PostStoreProtocol,
        probe: any CommitProbe,
        interval: Duration = .milliseconds(1),
        clock: any ClockProtocol
    ) {
        self.store = store
        self.probe = probe
        self.interval = interval
        self.clock = clock
    }

    /// A watcher of its own for a store, with the store's probe (or a ``PollingCommitProbe``) and told of the
    /// store's own commits: for a server, whose ``stop()`` must end its own waits only.
    ///
    /// - Parameters:
    ///   - store: The store watched.
    ///   - interval: How often the mark is read after a notification.
    ///   - clock: What the pauses and the waits' timeouts are measured on.
    package convenience init(store: any PostStoreProtocol, interval: Duration, clock: any ClockProtocol) {
        let observed = store as? any ObservedStore
        let probe = observed?.makeCommitProbe() ?? PollingCommitProbe(store: store)
        self.init(store: store, probe: probe, interval: interval, clock: clock)
        observed?.watcherSlot.register(self)
    }

    /// Reads the store's stamp now: its mark, then its token (so that a commit between the two moves the mark
    /// again, and is read again).
    ///
    /// - Throws: What reading them throws.
    func stamp() async throws -> StoreStamp {
        let mark = try await probe.commitMark()
        return StoreStamp(token: try await store.changeToken(), mark: mark)
    }

    /// Waits until the store's stamp is past `stamp` in what `concern` names, or `timeout` passes.
    ///
    /// - Returns: The store's new stamp, or `nil` when the timeout passed first or the watcher was stopped.
    /// - Throws: What reading the store throws; `CancellationError` when the task is cancelled.
    func change(
        after stamp: StoreStamp,
        concerning concern: Concern,
        timeout: Duration? = nil
    ) async throws -> StoreStamp? {
        let deadline = timeout.map { clock.uptime() + $0 }
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                enum Start {
                    case refused(Result<StoreStamp?, any Error>)
                    case waiting(
                        startsPolling: Bool,
                        counted: [CheckedContinuation<Void, Never>],
                        pause: Task<Void, Never>?
                    )
                }
                let start = state.withLock { state -> Start in
                    if Task.isCancelled { return .refused(.failure(CancellationError())) }
                    if state.isStopped { return .refused(.success(nil)) }
                    let waiter = Waiter(after: stamp, concern: concern, deadline: deadline, continuation: continuation)
                    state.waiters[id] = waiter
                    defer { state.isPolling = true }
                    let waiting = state.waiters.count
                    let reached = state.countWatchers.filter { $0.count <= waiting }.map(\.continuation)
                    state.countWatchers.removeAll { $0.count <= waiting }
                    // Behind what the poll has read already (a commit told before this waiter came): the poll
                    // answers it now, or when the answer gap allows, rather than at the next notification.
                    var pause: Task<Void, Never>?
                    if state.isPolling, let last = state.last, waiter.isBehind(last) {
                        state.wasNotified = true
                        pause = state.pause
                    }
                    return .waiting(startsPolling: !state.isPolling, counted: reached, pause: pause)
                }
                switch start {
                case .refused(let result):
                    continuation.resume(with: result)
                case .waiting(let startsPolling, let counted, let pause):
                    if startsPolling { Task { await poll() } }
                    pause?.cancel()
                    for watcher in counted { watcher.resume() }
                }
            }
        } onCancel: {
            // The last waiter gone, the poll's pause is cut short so that it stops now and lets go of its
            // notifications.
            let (waiter, pause) = state.withLock { state in
                (state.waiters.removeValue(forKey: id), state.waiters.isEmpty ? state.pause : nil)
            }
            waiter?.continuation.resume(throwing: CancellationError())
            pause?.cancel()
        }
    }

    /// Waits until the store's token is no longer `token`, or `timeout` passes: a held changes request.
    ///
    /// - Returns: The store's new token, or `nil` when the timeout passed first or the watcher was stopped.
    /// - Throws: What reading the token throws; `CancellationError` when the task is cancelled.
    package func change(after token: ChangeToken, timeout: Duration) async throws -> ChangeToken? {
        try await change(after: StoreStamp(token: token, mark: 0), concerning: .posts, timeout: timeout)?.token
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

    /// Tells the watcher that this process has just committed a write to the store: the mark is read at once.
    package func storeDidChange() {
        state.withLock { state in
            state.wasNotified = true
            return state.pause
        }?.cancel()
    }

    /// Whether ``stop()`` was called.
    var isStopped: Bool {
        state.withLock { $0.isStopped }
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

    /// A notification of a commit. A notification that comes after its commit (PostgreSQL's) is read at once. A
    /// notification that may come before it (file events) starts a burst of reads, at once and then every `interval`
    /// and less often, for ``burst`` after the last notification; a notification within a burst only extends it.
    private func commitNotification() {
        let now = clock.uptime()
        state.withLock { state in
            guard probe.notificationPrecedesCommit else {
                state.wasNotified = true
                return state.pause
            }
            let isQuiet = now >= state.burstEnd
            state.burstEnd = now + Self.burst
            guard isQuiet else { return nil }
            state.burstStep = interval
            state.burstStart = now
            state.wasNotified = true
            return state.pause
        }?.cancel()
    }

    /// The stamp now: the token is read again only when the mark moved.
    private func read() async -> Result<StoreStamp, any Error> {
        do {
            let mark = try await probe.commitMark()
            if let last = state.withLock({ $0.last }), last.mark == mark { return .success(last) }
            let token: ChangeToken
            if let told = probe.notifiedToken(atMark: mark) {
                token = told
            } else {
                token = try await store.changeToken()
            }
            let stamp = StoreStamp(token: token, mark: mark)
            state.withLock { $0.last = stamp }
            return .success(stamp)
        } catch {
            state.withLock { $0.last = nil }
            return .failure(error)
        }
    }

    /// Reads the store and answers the waiters it concerns, then pauses, until no one waits.
    private func poll() async {
        let notifications = probe.startNotifications { [weak self] in self?.commitNotification() }
        // What was read before these notifications began may be stale: a commit in between was told to no one.
        state.withLock { state in
            state.notifications = notifications
            state.last = nil
        }
        while true {
            // A commit announced from here on is one this read may miss: it makes the next read come at once.
            state.withLock { $0.wasNotified = false }
            let previous = state.withLock { $0.last }
            let stamp = await read()
            let now = clock.uptime()
            let (answered, pause) = state.withLock { state in
                var answered: [(Waiter, Result<StoreStamp?, any Error>)] = []
                let gapEnd = state.lastAnswered.map { $0 + Self.answerGap } ?? now
                var isHeldByTheGap = false
                for (id, waiter) in state.waiters {
                    let result: Result<StoreStamp?, any Error>
                    switch stamp {
                    case .failure(let error): result = .failure(error)
                    case .success(let stamp) where waiter.isBehind(stamp):
                        guard now >= gapEnd else {
                            isHeldByTheGap = true
                            continue
                        }
                        result = .success(stamp)
                        state.lastAnswered = now
                    case .success where waiter.deadline.map { $0 <= now } == true: result = .success(nil)
                    case .success: continue
                    }
                    answered.append((waiter, result))
                    state.waiters[id] = nil
                }
                // A read that found the mark where it was: the burst's reads come less often.
                if case .success(let stamp) = stamp, stamp.mark == previous?.mark {
                    if now - state.burstStart >= Self.steadyBurst {
                        state.burstStep = min(state.burstStep * 2, Self.longestBurstStep)
                    }
                } else {
                    state.burstStep = interval
                    state.burstStart = now
                }
                guard !state.waiters.isEmpty else {
                    state.isPolling = false
                    state.notifications?.stop()
                    state.notifications = nil
                    return (answered, Duration?.none)
                }
                let step: Duration? =
                    if state.notifications == nil { probe.pollInterval } else if now < state.burstEnd {
                        state.burstStep
                    } else {
                        probe.quietInterval
                    }
                let nearest = state.waiters.values.compactMap(\.deadline).min().map { max($0 - now, .zero) }
                let gap = isHeldByTheGap ? max(gapEnd - now, .zero) : nil
                return (answered, [step, nearest, gap].compactMap { $0 }.min() ?? Self.untilWoken)
            }
            for (waiter, result) in answered { waiter.continuation.resume(with: result) }
            guard let pause else { return }
            let sleeper = Task { [clock] in _ = try? await clock.sleep(for: pause) }
            let skip = state.withLock { state in
                state.pause = sleeper
                return state.wasNotified
            }
            if skip { sleeper.cancel() }
            await sleeper.value
            state.withLock { $0.pause = nil }
        }
    }
}
