import PostStore
import PostStoreTestSupport

/// A store of an engine written elsewhere: the protocol alone, no revision.
struct UnrevisionedStore: ForwardsReadsToMemory {
    let base: InMemoryPostStore

    func apply(_ changes: PostChangeSet) async throws -> WriteSummary { try await base.apply(changes) }
}
