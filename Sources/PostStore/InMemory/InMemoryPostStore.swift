/// A store that keeps its posts in memory only: fast, private to the process, gone when it ends.
///
/// The engine for tests and previews, and a cache in front of nothing. An actor, so concurrent calls are
/// serialized without blocking threads.
///
/// The posts are kept in one table, their text in a single byte array, with an index that the first query builds
/// and later queries bring up to date: a list of ids per user, and trigram filters over blocks of posts that a
/// search asks before it reads a block's text. A write only appends, so writes cost what they did without it; the
/// guide's "Choosing an Engine" article describes it.
///
/// For example:
///
/// ```swift
/// let store = InMemoryPostStore(posts: [Post(userId: 1, id: 1, title: "Hello", body: "World")])
/// let count = try await store.count()  // 1
/// ```
public actor InMemoryPostStore: PostStoreProtocol {
    /// The posts, sync states and change history; `package` for the engine table's `describe()`
    /// (PostStoreEngines).
    package private(set) var contents = StoreContents()
    /// How many writes changed posts or sync states: the commit mark of ``InMemoryCommitProbe``.
    private(set) var commits = 0
    /// The watcher this store's observers share.
    package nonisolated let watcherSlot = ChangeWatcherSlot()

    /// Creates a store holding the given posts.
    ///
    /// - Parameter posts: The initial posts; for a repeated id the last one wins. They are the store's first state:
    ///   its history begins after them.
    public init(posts: [Post] = []) {
        contents.posts = PostTable(posts)
    }

    @discardableResult
    public func apply(_ changes: PostChangeSet) throws -> WriteSummary {
        let summary = try contents.apply(changes)
        if summary.changedAnything || changes.syncState != nil { didCommit() }
        return summary
    }

    public func preview(_ changes: PostChangeSet) throws -> WriteSummary {
        try contents.preview(changes)
    }

    public func post(id: Int) throws -> Post? {
        contents.posts[id]
    }

    public func query(_ query: PostQuery) throws -> [Post] {
        try contents.query(query)
    }

    public func count() throws -> Int {
        contents.posts.count
    }

    public func removeAll() throws {
        contents.removeAll()
        didCommit()
    }

    private func didCommit() {
        commits += 1
        watcherSlot.storeDidCommit()
    }

    public func syncState(for source: String) throws -> SyncState? {
        contents.syncState(for: source)
    }

    public func syncStates() throws -> [SyncState] {
        contents.orderedSyncStates
    }

    // `async`, as the requirement: a synchronous method would lose to `PostStoreProtocol`'s default (which reads
    // every post) when called on this type in an asynchronous context, where Swift prefers the `async` overload.
    public func changeToken() async -> ChangeToken {
        contents.history.token
    }

    public func changes(since token: ChangeToken?, limit: Int) async throws -> PostChanges {
        try contents.changes(since: token, limit: limit)
    }
}

extension InMemoryPostStore: ChangeHistoryKeeping {
    public func changeHistory() -> ChangeHistorySummary {
        contents.history.summary
    }

    public func setChangeHistoryLimit(_ writes: Int) throws {
        try contents.history.setLimit(writes)
    }
}

extension InMemoryPostStore: PostPageReading {
    package func revision() -> String {
        contents.history.token.description
    }

    package func page(_ query: PostQuery) throws -> PostPage {
        try contents.page(query)
    }
}
