import PostStore
import PostStoreTesting
import Testing

/// `PostStoreProtocol`'s default writes: an engine implements one write entry point and gets the others; one that
/// implements none is named at its first write, instead of the two defaults calling each other for ever.
@Suite struct DefaultWriteTests {
    @Test func anEngineThatImplementsOnlyTheStreamingWriteGetsTheOthers() async throws {
        let store = StreamingWriteOnlyStore()
        let posts = SamplePosts.make(count: 3)

        #expect(try await store.apply(PostChangeSet(upserts: posts)).inserted == 3)
        #expect(try await store.upsert([posts[0]]).unchanged == 1)
        #expect(try await store.delete(ids: [posts[1].id]) == 1)
        #expect(try await store.count() == 2)
    }

    @Test func anEngineThatImplementsNoWriteIsNamedAtItsFirstWrite() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = try? await NoWriteStore().upsert(SamplePosts.make(count: 1))
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("NoWriteStore implements neither apply(_:) nor apply(_:streaming:progress:)"))
    }
}

/// Reads and previews from an in-memory store; what writes a conforming type has is its own.
private protocol ReadsFromMemory: PostStoreProtocol {
    var base: InMemoryPostStore { get }
}

extension ReadsFromMemory {
    func preview(_ changes: PostChangeSet) async throws -> WriteSummary { try await base.preview(changes) }
    func post(id: Int) async throws -> Post? { try await base.post(id: id) }
    func query(_ query: PostQuery) async throws -> [Post] { try await base.query(query) }
    func count() async throws -> Int { try await base.count() }
    func removeAll() async throws { try await base.removeAll() }
    func syncState(for source: String) async throws -> SyncState? { try await base.syncState(for: source) }
    func syncStates() async throws -> [SyncState] { try await base.syncStates() }
}

/// Implements the streaming write alone, as the SQLite and PostgreSQL engines do.
private struct StreamingWriteOnlyStore: ReadsFromMemory {
    let base = InMemoryPostStore()

    func apply(
        _ changes: PostChangeSet,
        streaming upserts: PostStream,
        progress: @escaping @Sendable (WorkProgress) -> Void
    ) async throws -> WriteSummary {
        try await base.apply(changes, streaming: upserts, progress: progress)
    }
}

/// Implements no write at all: a mistake.
private struct NoWriteStore: ReadsFromMemory {
    let base = InMemoryPostStore()
}
