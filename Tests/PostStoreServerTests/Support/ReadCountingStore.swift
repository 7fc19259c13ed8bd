import PostStore
import PostStoreTestSupport
import Synchronization

/// A store that counts the reads of posts it passes on to an in-memory store: how a test sees that a `304` read no
/// post.
final class ReadCountingStore: PostPageReading, ForwardsReadsToMemory {
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
    func post(id: Int) async throws -> Post? {
        counted()
        return try await base.post(id: id)
    }
    func query(_ query: PostQuery) async throws -> [Post] {
        counted()
        return try await base.query(query)
    }
}
