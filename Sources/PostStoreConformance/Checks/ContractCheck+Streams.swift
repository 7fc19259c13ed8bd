import Foundation
import PostStore
import PostStoreTesting
import Testing

extension ContractCheck {
    /// A streamed first write, re-write and changed write count and store what an array write does.
    static let streamedWritesMatchArrayWrites = ContractCheck(
        "streamedWritesMatchArrayWrites",
        "A streamed first write, re-write and changed write count and store what an array write does."
    ) { streamed, _ async throws in
        let reference = InMemoryPostStore()
        let first = SamplePosts.make(count: 10)
        var changed = Array(first.dropFirst(2)) + SamplePosts.make(count: 3, firstId: 50)
        changed[0].title += " (edited)"
        for posts in [first, first, changed] {
            let changes = PostChangeSet(prune: true)
            let expected = try await reference.apply(PostChangeSet(upserts: posts, prune: true))
            #expect(try await streamed.preview(changes, streaming: BatchedReader.stream(posts)) == expected)
            #expect(try await streamed.apply(changes, streaming: BatchedReader.stream(posts)) == expected)
            #expect(try await StoreSnapshot(of: streamed) == StoreSnapshot(of: reference))
        }
        #expect(try await streamed.query(PostQuery(search: "edited")).map(\.id) == [changed[0].id])
    }

    /// The change set's own upserts come first, and an id in both is refused.
    static let changeSetUpsertsAndStreamCombine = ContractCheck(
        "changeSetUpsertsAndStreamCombine",
        "The change set's own upserts come first, and an id in both is refused."
    ) { store, _ async throws in
        let posts = SamplePosts.make(count: 6)
        let summary = try await store.apply(
            PostChangeSet(upserts: Array(posts.prefix(2))),
            streaming: BatchedReader.stream(Array(posts.dropFirst(2)))
        )
        #expect(summary == WriteSummary(inserted: 6))
        let error = await #expect(throws: PostStoreError.self) {
            try await store.apply(
                PostChangeSet(upserts: [posts[0]]),
                streaming: BatchedReader.stream([posts[1], posts[0]])
            )
        }
        #expect(error?.code == .constraintViolation)
        let deleted = await #expect(throws: PostStoreError.self) {
            try await store.apply(PostChangeSet(deletions: [3]), streaming: BatchedReader.stream([posts[2]]))
        }
        #expect(deleted?.code == .constraintViolation)
        #expect(try await store.query(.all) == posts)
    }

    /// A repeated id in a stream into an empty store is refused, and nothing is written.
    static let repeatedIdIntoAnEmptyStore = ContractCheck(
        "repeatedIdIntoAnEmptyStore",
        "A repeated id in a stream into an empty store is refused, and nothing is written."
    ) { store, _ async throws in
        let posts = SamplePosts.make(count: 8)
        let error = await #expect(throws: PostStoreError.self) {
            try await store.apply(PostChangeSet(), streaming: BatchedReader.stream(posts + [posts[2]]))
        }
        #expect(error?.code == .constraintViolation)
        #expect(error?.message.contains(String(posts[2].id)) == true, "names the id: \(error?.message ?? "")")
        #expect(try await store.count() == 0)
    }

    /// A stream that fails part-way leaves the store byte for byte as it was.
    static let failingStreamWritesNothing = ContractCheck(
        "failingStreamWritesNothing",
        "A stream that fails part-way leaves the store byte for byte as it was."
    ) { store, run async throws in
        try await store.upsert(SamplePosts.make(count: 4))
        let before = try await StoreSnapshot(of: store)
        let files = try await run.storedFiles(for: "comparing the stored bytes")
        var changed = SamplePosts.make(count: 20)
        changed[0].body = "changed"
        for failAfter in [0, 1, 3] {
            let error = await #expect(throws: PostStoreError.self) {
                try await store.apply(
                    PostChangeSet(prune: true),
                    streaming: BatchedReader.stream(changed, batchSize: 4, failAfter: failAfter)
                )
            }
            #expect(error?.code == .invalidData)
            #expect(try await StoreSnapshot(of: store) == before)
            if let files { #expect(try await run.storedFiles(for: "comparing the stored bytes") == files) }
        }
    }

    /// A failing stream into an empty store leaves it empty, searchable after a later write.
    static let failingFirstStreamLeavesAnEmptyStore = ContractCheck(
        "failingFirstStreamLeavesAnEmptyStore",
        "A failing stream into an empty store leaves it empty, searchable after a later write."
    ) { store, _ async throws in
        let posts = SamplePosts.make(count: 30)
        await #expect(throws: PostStoreError.self) {
            try await store.apply(PostChangeSet(), streaming: BatchedReader.stream(posts, batchSize: 5, failAfter: 2))
        }
        #expect(try await store.count() == 0)
        #expect(try await store.query(PostQuery(search: posts[7].title)) == [])
        try await store.apply(PostChangeSet(), streaming: BatchedReader.stream(posts, batchSize: 5))
        #expect(try await store.query(PostQuery(search: posts[7].title)).contains(posts[7]))
    }

    /// The deletion limit counts streamed posts, and refuses before anything is written.
    static let deletionLimitAppliesToStreams = ContractCheck(
        "deletionLimitAppliesToStreams",
        "The deletion limit counts streamed posts, and refuses before anything is written."
    ) { store, _ async throws in
        let posts = SamplePosts.make(count: 10)
        try await store.upsert(posts)
        let changes = PostChangeSet(prune: true, deletionLimit: .share(0.5))
        let error = await #expect(throws: PostStoreError.self) {
            try await store.apply(changes, streaming: BatchedReader.stream(Array(posts.prefix(4))))
        }
        #expect(error?.code == .tooManyDeletions)
        #expect(try await store.count() == 10)
        #expect(try await store.apply(changes, streaming: BatchedReader.stream(Array(posts.prefix(5)))).deleted == 5)
    }
}
