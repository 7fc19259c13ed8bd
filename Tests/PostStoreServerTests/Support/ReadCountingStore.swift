import PostStore
import Synchronization

/// A store that counts the reads of posts it passes on to an in-memory store: how a test sees that a `304` read no
/// post.
final class ReadCountingStore: PostPageReading {
    let base: InMemoryPostStore
    private let reads = Mutex(0)

    init(posts: [Post]) {
        base = InMemoryPostStore(posts: posts)
    }

    /// How many reads of posts (`post`, `query`, `page`) the store served.
    var postReads: Int { reads.withLock { $0 } }

    private func counted() { reads.withLock { $0 += 1 } }

    func revision() async throws -> String { await base.revision() }
    func page(_ query: PostQuery) async throws -> PostPage {
        counted()
        return try await base.page(query)
    }
    func apply(_ changes: PostChangeSet) async throws -> WriteSummary { try await base.apply(changes) }
    func preview(_ changes: PostChangeSet) async throws -> WriteSummary { try await base.preview(changes) }
    func post(id: Int) async throws -> Post? {
        counted()
        return try await base.post(id: id)
    }
    func query(_ query: PostQuery) async throws -> [Post] {
        counted()
        return try await base.query(query)
    }
    func count() async throws -> Int { try await base.count() }
    func removeAll() async throws { try await base.removeAll() }
    func syncState(for source: String) async throws -> SyncState? { try await base.syncState(for: source) }
    func syncStates() async throws -> [SyncState] { try await base.syncStates() }
}
