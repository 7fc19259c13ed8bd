import PostStore

/// Everything a store holds, for "the store is exactly as it was" checks.
struct StoreSnapshot: Equatable {
    let posts: [Post]
    let syncStates: [SyncState]

    init(of store: any PostStoreProtocol) async throws {
        posts = try await store.query(.all)
        syncStates = try await store.syncStates()
    }
}
