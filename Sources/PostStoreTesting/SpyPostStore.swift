public import PostStore

/// A store for tests that records every call and its arguments, and can be told to fail a method.
///
/// It keeps its posts in an `InMemoryPostStore`, so it behaves like a real store unless told to fail, observers
/// included. Every `PostStoreProtocol` method but the changes feed's (`changeToken()`, `changes(since:limit:)`) is
/// recorded in ``calls``; the counters and `last…` properties read from them.
///
/// For example:
///
/// ```swift
/// let store = SpyPostStore(posts: SamplePosts.make(count: 3))
/// await store.fail(.query, with: PostStoreError(.storeBusy, "locked"))
/// // … run the code under test, which saves one new post …
/// #expect(await store.upsertCallCount == 1)
/// #expect(await store.lastUpsertedPosts?.map(\.id) == [4])
/// ```
public actor SpyPostStore: PostStoreProtocol {
    /// A method of `PostStoreProtocol`, to choose one to fail.
    public enum Method: String, Sendable, Hashable, CaseIterable {
        /// `PostStoreProtocol.apply(_:)`.
        case apply
        /// `PostStoreProtocol.preview(_:)`.
        case preview
        /// `PostStoreProtocol.upsert(_:)`.
        case upsert
        /// `PostStoreProtocol.delete(ids:)`.
        case delete
        /// `PostStoreProtocol.post(id:)`.
        case post
        /// `PostStoreProtocol.query(_:)`.
        case query
        /// `PostStoreProtocol.count()`.
        case count
        /// `PostStoreProtocol.removeAll()`.
        case removeAll
        /// `PostStoreProtocol.syncState(for:)`.
        case syncState
        /// `PostStoreProtocol.syncStates()`.
        case syncStates
    }

    /// One recorded call and its arguments.
    public enum Call: Sendable, Hashable {
        /// `apply` with its change set.
        case apply(PostChangeSet)
        /// `preview` with its change set.
        case preview(PostChangeSet)
        /// `upsert` with its posts.
        case upsert([Post])
        /// `delete` with its ids.
        case delete(Set<Int>)
        /// `post(id:)` with its id.
        case post(id: Int)
        /// `query` with its query.
        case query(PostQuery)
        /// `count()`.
        case count
        /// `removeAll()`.
        case removeAll
        /// `syncState(for:)` with its source.
        case syncState(source: String)
        /// `syncStates()`.
        case syncStates

        /// The method called.
        public var method: Method {
            switch self {
            case .apply: .apply
            case .preview: .preview
            case .upsert: .upsert
            case .delete: .delete
            case .post: .post
            case .query: .query
            case .count: .count
            case .removeAll: .removeAll
            case .syncState: .syncState
            case .syncStates: .syncStates
            }
        }
    }

    private nonisolated let store: InMemoryPostStore
    private var failures: [Method: PostStoreError] = [:]

    /// Every call so far, in order, failed ones included.
    public private(set) var calls: [Call] = []

    /// Creates a store holding the given posts.
    ///
    /// - Parameter posts: The initial posts.
    public init(posts: [Post] = []) {
        store = InMemoryPostStore(posts: posts)
    }

    /// Makes every later call of `method` throw `error` (recorded, but without effect), until ``succeed(_:)``.
    ///
    /// - Parameters:
    ///   - method: The method.
    ///   - error: What it throws.
    public func fail(_ method: Method, with error: PostStoreError) {
        failures[method] = error
    }

    /// Makes `method` work again.
    ///
    /// - Parameter method: The method.
    public func succeed(_ method: Method) {
        failures[method] = nil
    }

    /// How many times `method` was called.
    ///
    /// - Parameter method: The method.
    /// - Returns: The number of calls, failed ones included.
    public func callCount(_ method: Method) -> Int {
        calls.count { $0.method == method }
    }

    /// How many times ``upsert(_:)`` was called.
    public var upsertCallCount: Int { callCount(.upsert) }
    /// The posts of the last ``upsert(_:)`` call.
    public var lastUpsertedPosts: [Post]? {
        calls.last { $0.method == .upsert }.flatMap { if case .upsert(let posts) = $0 { posts } else { nil } }
    }
    /// How many times ``apply(_:)`` was called.
    public var applyCallCount: Int { callCount(.apply) }
    /// The change set of the last ``apply(_:)`` call.
    public var lastAppliedChanges: PostChangeSet? {
        calls.last { $0.method == .apply }.flatMap { if case .apply(let changes) = $0 { changes } else { nil } }
    }
    /// How many times ``query(_:)`` was called.
    public var queryCallCount: Int { callCount(.query) }
    /// The last query.
    public var lastQuery: PostQuery? {
        calls.last { $0.method == .query }.flatMap { if case .query(let query) = $0 { query } else { nil } }
    }
    /// How many times ``delete(ids:)`` was called.
    public var deleteCallCount: Int { callCount(.delete) }
    /// The ids of the last ``delete(ids:)`` call.
    public var lastDeletedIds: Set<Int>? {
        calls.last { $0.method == .delete }.flatMap { if case .delete(let ids) = $0 { ids } else { nil } }
    }

    // MARK: - PostStoreProtocol

    @discardableResult
    public func apply(_ changes: PostChangeSet) async throws -> WriteSummary {
        try record(.apply(changes))
        return try await store.apply(changes)
    }

    public func preview(_ changes: PostChangeSet) async throws -> WriteSummary {
        try record(.preview(changes))
        return try await store.preview(changes)
    }

    @discardableResult
    public func upsert(_ posts: [Post]) async throws -> WriteSummary {
        try record(.upsert(posts))
        return try await store.apply(PostChangeSet(upserts: posts))
    }

    @discardableResult
    public func delete(ids: Set<Int>) async throws -> Int {
        try record(.delete(ids))
        return try await store.apply(PostChangeSet(deletions: ids)).deleted
    }

    public func post(id: Int) async throws -> Post? {
        try record(.post(id: id))
        return try await store.post(id: id)
    }

    public func query(_ query: PostQuery) async throws -> [Post] {
        try record(.query(query))
        return try await store.query(query)
    }

    public func count() async throws -> Int {
        try record(.count)
        return try await store.count()
    }

    public func removeAll() async throws {
        try record(.removeAll)
        try await store.removeAll()
    }

    public func syncState(for source: String) async throws -> SyncState? {
        try record(.syncState(source: source))
        return try await store.syncState(for: source)
    }

    public func syncStates() async throws -> [SyncState] {
        try record(.syncStates)
        return try await store.syncStates()
    }

    // The changes feed is answered by the store inside, unrecorded: observers of the spy skip writes with it, as
    // they do on an in-memory store.
    public func changeToken() async throws -> ChangeToken {
        await store.changeToken()
    }

    public func changes(since token: ChangeToken?, limit: Int) async throws -> PostChanges {
        try await store.changes(since: token, limit: limit)
    }

    /// Records a call, then throws the failure set for its method, if any.
    private func record(_ call: Call) throws(PostStoreError) {
        calls.append(call)
        if let failure = failures[call.method] { throw failure }
    }
}

/// Observed as the in-memory store inside: its writes wake the spy's observers at once, and their reads are recorded.
extension SpyPostStore: ObservedStore {
    package nonisolated var watcherSlot: ChangeWatcherSlot { store.watcherSlot }

    package nonisolated func makeCommitProbe() -> any CommitProbe {
        store.makeCommitProbe()
    }
}
