public import PostStore

extension StoreEngine {
    /// `InMemoryPostStore`: `memory:`, a store that lasts as long as the process.
    public static let memory = StoreEngine(
        scheme: "memory",
        fileExtensions: [],
        locationKind: .none,
        open: { _, _ in InMemoryPostStore() },
        withoutMigrationsBecause: "an in-memory store lasts one process"
    )
}

extension InMemoryPostStore: StoreDescribing {
    package func describe() -> StoreDescription {
        StoreDescription(count: contents.posts.count, syncStates: contents.orderedSyncStates, formatVersion: nil)
    }
}
