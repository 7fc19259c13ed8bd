import Foundation
import PostStoreLive
import PostStoreTesting
import Testing

@_spi(FileSystem) @testable import PostStore
@testable import PostStoreHTTP
@testable import PostStoreJSONFile
@testable import PostStoreSQLite

/// The contract of ``PostStoreProtocol/apply(_:streaming:)`` and ``PostStoreProtocol/preview(_:streaming:)`` on
/// every engine: a streamed write is the same write as one with every post in the change set, and a stream that
/// fails part-way writes nothing. (SQLite streams for real, the others read the stream first.)
@Suite("Streamed writes contract")
struct StreamingContractTests {
    /// A reader that hands out posts in batches of `batchSize` and, with `failAfter`, throws once that many
    /// batches were read.
    struct BatchedReader: PostReader {
        var remaining: ArraySlice<Post>
        let batchSize: Int
        var failAfter: Int?

        mutating func nextBatch() throws -> [Post]? {
            if let failAfter {
                guard failAfter > 0 else {
                    throw PostStoreError(.invalidData, "The post at index 7 is broken (an injected failure).")
                }
                self.failAfter = failAfter - 1
            }
            guard !remaining.isEmpty else { return nil }
            defer { remaining = remaining.dropFirst(batchSize) }
            return Array(remaining.prefix(batchSize))
        }
    }

    static func stream(_ posts: [Post], batchSize: Int = 3, failAfter: Int? = nil) -> PostStream {
        PostStream { BatchedReader(remaining: posts[...], batchSize: batchSize, failAfter: failAfter) }
    }

    @Test(
        "a streamed first write, re-write and changed write count and store what an array write does",
        arguments: StoreKind.allCases
    )
    func streamedWritesMatchArrayWrites(kind: StoreKind) async throws {
        try await withStore(kind) { streamed, directory async throws in
            let reference = InMemoryPostStore()
            let first = SamplePosts.make(count: 10)
            var changed = Array(first.dropFirst(2)) + SamplePosts.make(count: 3, firstId: 50)
            changed[0].title += " (edited)"
            for posts in [first, first, changed] {
                let changes = PostChangeSet(prune: true)
                let expected = try await reference.apply(PostChangeSet(upserts: posts, prune: true))
                #expect(try await streamed.preview(changes, streaming: Self.stream(posts)) == expected)
                #expect(try await streamed.apply(changes, streaming: Self.stream(posts)) == expected)
                #expect(try await StoreSnapshot(of: streamed) == StoreSnapshot(of: reference))
            }
            #expect(try await streamed.query(PostQuery(search: "edited")).map(\.id) == [changed[0].id])
        }
    }

    @Test("the change set's own upserts come first, and an id in both is refused", arguments: StoreKind.allCases)
    func changeSetUpsertsAndStreamCombine(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ async throws in
            let posts = SamplePosts.make(count: 6)
            let summary = try await store.apply(
                PostChangeSet(upserts: Array(posts.prefix(2))),
                streaming: Self.stream(Array(posts.dropFirst(2)))
            )
            #expect(summary == WriteSummary(inserted: 6))
            let error = await #expect(throws: PostStoreError.self) {
                try await store.apply(
                    PostChangeSet(upserts: [posts[0]]),
                    streaming: Self.stream([posts[1], posts[0]])
                )
            }
            #expect(error?.code == .constraintViolation)
            let deleted = await #expect(throws: PostStoreError.self) {
                try await store.apply(PostChangeSet(deletions: [3]), streaming: Self.stream([posts[2]]))
            }
            #expect(deleted?.code == .constraintViolation)
            #expect(try await store.query(.all) == posts)
        }
    }

    @Test(
        "a repeated id in a stream into an empty store is refused, and nothing is written",
        arguments: StoreKind.allCases
    )
    func repeatedIdIntoAnEmptyStore(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ async throws in
            let posts = SamplePosts.make(count: 8)
            let error = await #expect(throws: PostStoreError.self) {
                try await store.apply(PostChangeSet(), streaming: Self.stream(posts + [posts[2]]))
            }
            #expect(error?.code == .constraintViolation)
            #expect(error?.message.contains("same id \(posts[2].id)") == true, "\(error?.message ?? "")")
            #expect(try await store.count() == 0)
        }
    }

    @Test("a stream that fails part-way leaves the store byte for byte as it was", arguments: StoreKind.allCases)
    func failingStreamWritesNothing(kind: StoreKind) async throws {
        try await withStore(kind) { store, directory async throws in
            try await store.upsert(SamplePosts.make(count: 4))
            let before = try await StoreSnapshot(of: store)
            let files = kind.storedFiles(in: directory)
            var changed = SamplePosts.make(count: 20)
            changed[0].body = "changed"
            for failAfter in [0, 1, 3] {
                let error = await #expect(throws: PostStoreError.self) {
                    try await store.apply(
                        PostChangeSet(prune: true),
                        streaming: Self.stream(changed, batchSize: 4, failAfter: failAfter)
                    )
                }
                #expect(error?.code == .invalidData)
                #expect(try await StoreSnapshot(of: store) == before)
                #expect(kind.storedFiles(in: directory) == files)
            }
        }
    }

    @Test(
        "a failing stream into an empty store leaves it empty, searchable after a later write",
        arguments: StoreKind.allCases
    )
    func failingFirstStreamLeavesAnEmptyStore(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ async throws in
            let posts = SamplePosts.make(count: 30)
            await #expect(throws: PostStoreError.self) {
                try await store.apply(PostChangeSet(), streaming: Self.stream(posts, batchSize: 5, failAfter: 2))
            }
            #expect(try await store.count() == 0)
            #expect(try await store.query(PostQuery(search: posts[7].title)) == [])
            try await store.apply(PostChangeSet(), streaming: Self.stream(posts, batchSize: 5))
            #expect(try await store.query(PostQuery(search: posts[7].title)).contains(posts[7]))
        }
    }

    @Test(
        "the prune guard counts streamed posts, and refuses before anything is written",
        arguments: StoreKind.allCases
    )
    func pruneGuardAppliesToStreams(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ async throws in
            let posts = SamplePosts.make(count: 10)
            try await store.upsert(posts)
            let changes = PostChangeSet(prune: true, deletionLimit: .share(0.5))
            let error = await #expect(throws: PostStoreError.self) {
                try await store.apply(changes, streaming: Self.stream(Array(posts.prefix(4))))
            }
            #expect(error?.code == .tooManyDeletions)
            #expect(try await store.count() == 10)
            #expect(try await store.apply(changes, streaming: Self.stream(Array(posts.prefix(5)))).deleted == 5)
        }
    }
}
