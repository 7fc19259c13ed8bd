import PostStoreTesting
import Testing

@testable import PostStore

/// A post's place in a batch is named the way the payload parser names a post's place in a payload: "at index N",
/// counted from 0 (a byte's place is a "byte offset").
@Suite("Batch positions in messages")
struct BatchPositionMessageTests {
    @Test("a repeated id names the second post's index")
    func repeatedId() {
        let posts = SamplePosts.make(count: 3) + SamplePosts.make(count: 1)
        let error = #expect(throws: PostStoreError.self) { try PostChangeSet(upserts: posts).validate() }
        #expect(error?.message == "Two posts in one batch have the same id 1 (the second at index 3).")
    }

    @Test("an id both upserted and deleted names the upsert's index")
    func upsertedAndDeleted() {
        let changes = PostChangeSet(upserts: SamplePosts.make(count: 3), deletions: [2])
        let error = #expect(throws: PostStoreError.self) { try changes.validate() }
        #expect(error?.message == "Post 2 is both upserted (at index 1) and deleted in one batch.")
    }

    @Test("a repeat among a stream's ids names the second one's index")
    func repeatedIdInAStream() {
        let error = #expect(throws: PostStoreError.self) { try [5, 3, 5].sortedCheckingUpsertRepeats() }
        #expect(error?.message == "Two posts in one batch have the same id 5 (the second at index 2).")
    }
}
