/// A store that keeps its posts in memory only: fast, private to the process, gone when it ends.
///
/// The engine for tests and previews, and a cache in front of nothing. An actor, so concurrent calls are
/// serialized without blocking threads.
///
/// For example:
///
/// ```swift
/// let store = InMemoryPostStore(posts: [Post(userId: 1, id: 1, title: "Hello", body: "World")])
/// let count = try await store.count()  // 1
/// ```
public actor InMemoryPostStore: PostStoreProtocol {
    /// The posts and sync states; `package` for the engine table's `describe()` (PostStoreEngines).
    package private(set) var contents = StoreContents()
    /// Counts the writes that changed posts; with ``instance``, this store's revision.
    private var changes = 0
    /// Tells this store's revisions from another's (the counts of two stores meet).
    private let instance = StableHasher.random()

    /// Creates a store holding the given posts.
    ///
    /// - Parameter posts: The initial posts; for a repeated id the last one wins.
    public init(posts: [Post] = []) {
        for post in posts {
            contents.posts[post.id] = post
        }
    }

    @discardableResult
    public func apply(_ changes: PostChangeSet) throws -> WriteSummary {
        let summary = try contents.apply(changes)
        if summary.changedAnything { self.changes += 1 }
        return summary
    }

    public func preview(_ changes: PostChangeSet) throws -> WriteSummary {
        var copy = contents
        return try copy.apply(changes)
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
        if !contents.posts.isEmpty { changes += 1 }
        contents = StoreContents()
    }

    public func syncState(for source: String) throws -> SyncState? {
        contents.syncState(for: source)
    }

    public func syncStates() throws -> [SyncState] {
        contents.orderedSyncStates
    }
}

extension InMemoryPostStore: PostPageReading {
    package func revision() -> String {
        "\(instance)-\(changes)"
    }

    package func page(_ query: PostQuery) throws -> PostPage {
        try query.evaluatePage(over: contents.posts, revision: revision())
    }
}
