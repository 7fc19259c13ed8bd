import PostStore
import PostStoreTesting
import Testing

extension ContractCheck {
    /// Expects `write` to be refused with a `PostStoreError` of `code` and to leave `store` exactly as it was.
    ///
    /// - Returns: The error, for checks of its message.
    static func expectRefusedWhole(
        _ code: PostStoreError.Code,
        by store: any PostStoreProtocol,
        sourceLocation: SourceLocation = #_sourceLocation,
        _ write: () async throws -> Void
    ) async throws -> PostStoreError? {
        let before = try await StoreSnapshot(of: store)
        let error = await #expect(throws: PostStoreError.self, sourceLocation: sourceLocation) { try await write() }
        #expect(error?.code == code, sourceLocation: sourceLocation)
        #expect(try await StoreSnapshot(of: store) == before, sourceLocation: sourceLocation)
        return error
    }

    /// Expects a store whose write was refused (or cancelled) while another process held its lock to hold no post,
    /// and to take a write now that the lock is released.
    static func expectEmptyAndWritable(
        _ store: any PostStoreProtocol,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        #expect(try await store.count() == 0, sourceLocation: sourceLocation)
        #expect(
            try await store.upsert(SamplePosts.make(count: 1)) == WriteSummary(inserted: 1),
            sourceLocation: sourceLocation
        )
    }
}
