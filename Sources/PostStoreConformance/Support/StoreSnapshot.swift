package import PostStore

/// Everything a store holds, for "the store is exactly as it was" checks (the package's own tests use it too).
package struct StoreSnapshot: Equatable {
    package let posts: [Post]
    package let syncStates: [SyncState]

    package init(of store: any PostStoreProtocol) async throws {
        posts = try await store.query(.all)
        syncStates = try await store.syncStates()
    }
}
