public import PostStore

/// A store double built on an in-memory store: it previews and reads through `base`, and implements its writes
/// itself (a double that writes as the base does forwards `apply(_:)` in one line). A double overrides any read it
/// changes by implementing that requirement.
public protocol ForwardsReadsToMemory: PostStoreProtocol {
    /// The store every read and preview is passed to.
    var base: InMemoryPostStore { get }
}

extension ForwardsReadsToMemory {
    public func preview(_ changes: PostChangeSet) async throws -> WriteSummary { try await base.preview(changes) }
    public func post(id: Int) async throws -> Post? { try await base.post(id: id) }
    public func query(_ query: PostQuery) async throws -> [Post] { try await base.query(query) }
    public func count() async throws -> Int { try await base.count() }
    public func removeAll() async throws { try await base.removeAll() }
    public func syncState(for source: String) async throws -> SyncState? { try await base.syncState(for: source) }
    public func syncStates() async throws -> [SyncState] { try await base.syncStates() }
}
