import PostStore
import PostStoreTestSupport
import Synchronization

/// A store where another process writes between a server's first read and the write that follows it: right after
/// the first `post(id:)` or `query(_:)` it answers, it runs `race` once on the store underneath, as another
/// machine's server would.
final class RacingStore: ForwardsReadsToMemory {
    let base: InMemoryPostStore
    private let race: Mutex<(@Sendable (InMemoryPostStore) async throws -> Void)?>

    init(posts: [Post], race: @escaping @Sendable (InMemoryPostStore) async throws -> Void) {
        base = InMemoryPostStore(posts: posts)
        self.race = Mutex(race)
    }

    func apply(_ changes: PostChangeSet) async throws -> WriteSummary { try await base.apply(changes) }

    func post(id: Int) async throws -> Post? {
        let post = try await base.post(id: id)
        try await raceOnce()
        return post
    }

    func query(_ query: PostQuery) async throws -> [Post] {
        let posts = try await base.query(query)
        try await raceOnce()
        return posts
    }

    private func raceOnce() async throws {
        if let race = race.withLock({ $0.take() }) { try await race(base) }
    }
}
