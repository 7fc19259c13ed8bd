public import PostStore
import Synchronization

/// A source with a changes feed that answers from a store, as `poststore serve` would from its store, and records
/// the token of every request; it can be told to fail requests, or to run a step before it answers.
///
/// Inject it where an `HTTPPostDataService` of a server would go, to test code that syncs or follows by changes
/// without a server. A request that waits (`PostChangesRequest.wait`) while the store has no change is held
/// until a write to the store commits or the wait ends, as a server holds it.
///
/// For example:
///
/// ```swift
/// let origin = InMemoryPostStore(posts: SamplePosts.make(count: 3))
/// let source = StubPostChangesSource(serving: origin)
/// let replica = InMemoryPostStore()
/// let sync = SyncService(dataService: source, store: replica, clock: TestClock())
/// try await sync.sync()                       // every post, and the checkpoint
/// try await origin.delete(ids: [2])
/// let report = try await sync.sync(SyncOptions(prune: true))  // by changes: one deletion
/// ```
public final class StubPostChangesSource: PostChangesSource {
    /// The source's name, as reports and sync states show it.
    public let source: String
    /// The store whose changes it answers.
    public let store: any PostStoreProtocol
    private let watcher: ChangeWatcher
    private let state = Mutex<(failures: [PostStoreError], tokens: [ChangeToken?])>(([], []))
    private let step = Mutex<(@Sendable (PostChangesRequest) async throws -> Void)?>(nil)

    /// Creates a source.
    ///
    /// - Parameters:
    ///   - source: The source's name.
    ///   - store: The store whose changes it answers.
    public init(source: String = "stub://changes", serving store: any PostStoreProtocol) {
        self.source = source
        self.store = store
        watcher = ChangeWatcher(store: store, interval: .milliseconds(1), clock: SystemClock())
    }

    /// Makes the next requests throw these errors, one each, before it answers again.
    ///
    /// - Parameter errors: The errors, in order.
    public func fail(with errors: PostStoreError...) {
        state.withLock { $0.failures += errors }
    }

    /// Runs `step` before each later request is answered (and after it is recorded): another writer's moment.
    ///
    /// - Parameter step: What to run, given the request; an error it throws is the request's.
    public func beforeAnswering(_ step: (@Sendable (PostChangesRequest) async throws -> Void)?) {
        self.step.withLock { $0 = step }
    }

    /// The token of every request for changes so far, in order (`nil` for a whole copy); whole fetches through
    /// ``streamPosts(_:)`` are not among them.
    public var requestedTokens: [ChangeToken?] { state.withLock { $0.tokens } }

    /// Every post of the store.
    public func streamPosts(_ request: PostFetchRequest) async throws -> PostStreamResult {
        .posts(PostStream(try await store.query(PostQuery())), etag: nil, pages: 1)
    }

    /// The store's changes since the request's token, held up to its wait while there are none; the store's
    /// `mustRefetch` as `PostChangesResult.mustRefetch(_:)`.
    public func fetchChanges(_ request: PostChangesRequest) async throws -> PostChangesResult {
        let failure = state.withLock { state -> PostStoreError? in
            state.tokens.append(request.since)
            return state.failures.isEmpty ? nil : state.failures.removeFirst()
        }
        if let failure { throw failure }
        if let step = step.withLock({ $0 }) { try await step(request) }
        do {
            var changes = try await store.changes(since: request.since, limit: request.limit)
            if let since = request.since, changes.count == 0, request.wait > .zero,
                try await watcher.change(after: since, timeout: request.wait) != nil
            {
                changes = try await store.changes(since: since, limit: request.limit)
            }
            return .changes(changes, pages: 1)
        } catch let error as PostStoreError where error.code == .mustRefetch {
            return .mustRefetch(error.message)
        }
    }
}
