/// A read of a store kept current: its result now, then a new result after each committed write that changes it,
/// by this process, another process or another machine.
///
/// Made by ``PostStoreProtocol/observe(_:)``, ``PostStoreProtocol/observePost(id:)`` and
/// ``PostStoreProtocol/observeSyncStates()``; see <doc:ObservingAStore>. Each result is one state the store held
/// (never half a write) and differs from the one before it. A consumer slower than the writes gets the latest
/// result when it asks for the next, never a backlog: nothing is read until it asks. Cancelling the consuming task
/// ends the sequence (`nil`) and releases what it holds; an error of the store (deleted, corrupt, unreachable past
/// its retries) ends it with that error.
///
/// For example:
///
/// ```swift
/// for try await posts in store.observe(PostQuery(userIds: [1])) {
///     print("user 1 has \(posts.count) posts")
/// }
/// ```
public struct PostObservation<Value: Sendable & Equatable>: AsyncSequence, Sendable {
    public typealias Element = Value
    public typealias Failure = PostStoreError

    private let store: any PostStoreProtocol
    private let watcher: ChangeWatcher?
    private let concern: ChangeWatcher.Concern
    private let read: @Sendable () async throws -> Value
    private let isUnchanged: (@Sendable (PostChanges, Value) -> Bool)?

    /// An observation of `read` over a store.
    ///
    /// - Parameters:
    ///   - store: The store read.
    ///   - watcher: What tells of commits; `nil` for the store's shared watcher.
    ///   - concern: Which commits may change the result: those that change posts, or any.
    ///   - isUnchanged: Whether a caught-up page of the changes feed since the last result cannot have changed it,
    ///     given that result: a write it answers `true` for is skipped without reading again.
    ///   - read: Reads the result.
    package init(
        store: any PostStoreProtocol,
        watcher: ChangeWatcher? = nil,
        concern: ChangeWatcher.Concern,
        isUnchanged: (@Sendable (PostChanges, Value) -> Bool)? = nil,
        read: @escaping @Sendable () async throws -> Value
    ) {
        self.store = store
        self.watcher = watcher
        self.concern = concern
        self.isUnchanged = isUnchanged
        self.read = read
    }

    public func makeAsyncIterator() -> Iterator {
        Iterator(observation: self, watcher: watcher ?? store.sharedWatcher)
    }

    /// Reads the results of a ``PostObservation``, one per call of `next`.
    public struct Iterator: AsyncIteratorProtocol, Sendable {
        private let observation: PostObservation
        private let watcher: ChangeWatcher
        /// The store's stamp when the last result was read; `nil` before the first.
        private var stamp: StoreStamp?
        private var last: Value?
        private var isFinished = false

        /// How many posts and deletions of the changes feed are looked at to decide whether a write can be
        /// skipped: past them, the read runs again.
        static var changesLooked: Int { 100 }

        init(observation: PostObservation, watcher: ChangeWatcher) {
            self.observation = observation
            self.watcher = watcher
        }

        /// The next result: the current one first, then the next that differs.
        ///
        /// - Returns: The result, or `nil` when the task was cancelled (or a server's watcher stopped).
        /// - Throws: ``PostStoreError`` from the store; the sequence ends with it.
        public mutating func next() async throws(PostStoreError) -> Value? {
            try await next(isolation: nil)
        }

        /// The next result, read from the caller's actor (a `@MainActor` model's loop needs no hop of its own).
        ///
        /// - Parameter actor: The caller's actor.
        /// - Returns: As ``next()``.
        /// - Throws: As ``next()``.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(PostStoreError) -> Value? {
            guard case .value(let value) = try await step(quietAfter: nil, isolation: actor) else { return nil }
            return value
        }

        /// What ``next(within:isolation:)`` found.
        package enum Step: Sendable {
            /// The next result.
            case value(Value)
            /// No new result within the time given.
            case quiet
            /// The end: the task was cancelled, or a server's watcher stopped.
            case ended
        }

        /// The next result, or ``Step/quiet`` when none came within `timeout`: for a server that writes something
        /// now and then to a client it streams results to.
        ///
        /// - Parameters:
        ///   - timeout: How long to wait for a result after the first.
        ///   - actor: The caller's actor.
        /// - Returns: The result, the quiet, or the end.
        /// - Throws: As ``next()``.
        package mutating func next(
            within timeout: Duration,
            isolation actor: isolated (any Actor)? = #isolation
        ) async throws(PostStoreError) -> Step {
            try await step(quietAfter: timeout, isolation: actor)
        }

        private mutating func step(
            quietAfter timeout: Duration?,
            isolation actor: isolated (any Actor)?
        ) async throws(PostStoreError) -> Step {
            guard !isFinished else { return .ended }
            do {
                let step = try await nextResult(quietAfter: timeout, isolation: actor)
                if case .ended = step { isFinished = true }
                return step
            } catch is CancellationError {
                isFinished = true
                return .ended
            } catch let error as PostStoreError {
                isFinished = true
                throw error
            } catch {
                isFinished = true
                throw PostStoreError(.ioFailure, "Observing the store failed: \(error)", cause: error)
            }
        }

        private mutating func nextResult(
            quietAfter timeout: Duration?,
            isolation actor: isolated (any Actor)?
        ) async throws -> Step {
            guard let start = stamp else {
                let stamp = try await watcher.stamp()
                let value = try await observation.read()
                // A consumer cancelled while the read ran gets nothing more: it may have moved on.
                try Task.checkCancellation()
                (self.stamp, last) = (stamp, value)
                return .value(value)
            }
            var stamp = start
            while true {
                try Task.checkCancellation()
                let concern = observation.concern
                guard let next = try await watcher.change(after: stamp, concerning: concern, timeout: timeout) else {
                    return watcher.isStopped || timeout == nil ? .ended : .quiet
                }
                var isUnchanged = false
                if let last {
                    isUnchanged = try await self.isUnchanged(since: stamp.token, given: last, isolation: actor)
                }
                // The read that follows is of this state or a later one: a write after it is waited for again.
                stamp = next
                self.stamp = next
                if isUnchanged { continue }
                let value = try await observation.read()
                try Task.checkCancellation()
                if value != last {
                    last = value
                    return .value(value)
                }
            }
        }

        /// Whether the writes since `token` cannot have changed the last result, from the changes feed: `false`
        /// when the observation cannot tell, the changes are many, or the store must be read again.
        private func isUnchanged(
            since token: ChangeToken,
            given last: Value,
            isolation actor: isolated (any Actor)?
        ) async throws -> Bool {
            guard let isUnchanged = observation.isUnchanged else { return false }
            let changes: PostChanges
            do {
                changes = try await observation.store.changes(since: token, limit: Self.changesLooked)
            } catch let error as PostStoreError where error.code == .mustRefetch {
                return false
            }
            return changes.isCaughtUp && isUnchanged(changes, last)
        }
    }
}
