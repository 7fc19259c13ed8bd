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

    /// Writes ``SamplePosts/tricky`` and returns the posts the store now holds: all of them, or for an engine that
    /// keeps no NUL character, the same posts without their NUL characters, after checking that the posts as
    /// they are were refused whole, naming the post.
    static func upsertTrickyPosts(
        into store: any PostStoreProtocol,
        _ run: ContractRun,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> [Post] {
        guard !run.keepsNULCharacters else {
            _ = try await store.upsert(SamplePosts.tricky)
            return SamplePosts.tricky
        }
        let error = try await expectRefusedWhole(.invalidData, by: store, sourceLocation: sourceLocation) {
            _ = try await store.upsert(SamplePosts.tricky)
        }
        #expect(error?.message.contains("Post 7 ") == true, "names the post: \(String(describing: error))")
        let keepable = SamplePosts.tricky.map { post in
            var post = post
            post.title.unicodeScalars.removeAll { $0 == "\0" }
            post.body.unicodeScalars.removeAll { $0 == "\0" }
            return post
        }
        _ = try await store.upsert(keepable)
        return keepable
    }
}
