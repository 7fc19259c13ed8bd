import PostStore

/// A store of an engine written elsewhere: the protocol alone, no revision.
struct UnrevisionedStore: PostStoreProtocol {
    let base: InMemoryPostStore

    func apply(_ changes: PostChangeSet) async throws -> WriteSummary { try await base.apply(changes) }
    func preview(_ changes: PostChangeSet) async throws -> WriteSummary { try await base.preview(changes) }
    func post(id: Int) async throws -> Post? { try await base.post(id: id) }
    func query(_ query: PostQuery) async throws -> [Post] { try await base.query(query) }
    func count() async throws -> Int { try await base.count() }
    func removeAll() async throws { try await base.removeAll() }
    func syncState(for source: String) async throws -> SyncState? { try await base.syncState(for: source) }
    func syncStates() async throws -> [SyncState] { try await base.syncStates() }
}
