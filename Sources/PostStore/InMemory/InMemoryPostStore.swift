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
    private var contents = StoreContents()

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
        try contents.apply(changes)
    }

    public func preview(_ changes: PostChangeSet) throws -> WriteSummary {
        var copy = contents
        return try copy.apply(changes)
    }

    public func post(id: Int) -> Post? {
        contents.posts[id]
    }

    public func query(_ query: PostQuery) throws -> [Post] {
        try contents.query(query)
    }

    public func count() -> Int {
        contents.posts.count
    }

    public func removeAll() {
        contents = StoreContents()
    }

    public func syncState(for source: String) -> SyncState? {
        contents.syncState(for: source)
    }

    public func syncStates() -> [SyncState] {
        contents.orderedSyncStates
    }
}

extension InMemoryPostStore: StoreDescribing {
    package func describe() -> StoreDescription {
        StoreDescription(count: count(), syncStates: syncStates(), formatVersion: nil)
    }
}
