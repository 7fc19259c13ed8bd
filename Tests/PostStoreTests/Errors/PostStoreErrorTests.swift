import Foundation
import PostStore
import Testing

@Suite struct PostStoreErrorTests {
    /// An app that shows `error.localizedDescription` of any error shows the message, without casting.
    @Test func theLocalizedDescriptionIsTheMessage() {
        let error: any Error = PostStoreError(.storeNotFound, "No store at posts.sqlite; run a sync first.")
        #expect(error.localizedDescription == "No store at posts.sqlite; run a sync first.")
    }

    /// Logs get the code and the cause; people get the message alone.
    @Test func theDescriptionAddsTheCodeAndTheCause() {
        let error = PostStoreError(.ioFailure, "Cannot write posts.json.", cause: POSIXError(.ENOSPC))
        #expect(error.description.hasPrefix("ioFailure: Cannot write posts.json. ("))
        #expect(error.localizedDescription == "Cannot write posts.json.")
    }
}
