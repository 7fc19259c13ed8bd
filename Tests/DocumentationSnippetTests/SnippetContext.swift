// What the documentation's blocks name without declaring, as a reader's app would have it (see
// scripts/ci/doc-snippets.py; the store, service and posts a block uses are its function's parameters).
import PostStore
import PostStoreJSONFile

/// The Errors article's "ask the user before forcing the prune".
func askBeforeForcing(_ message: String) {}

/// The Errors article's "try again later".
func retryLater() {}

/// NewStoreStaging's "write the new store's posts".
func build(_ store: any PostStoreProtocol) async throws {}

/// The Conformance pages' "your engine that keeps its posts in a file", with the initializer they call.
typealias MyPostStore = JSONFilePostStore

/// The Conformance pages' "your engine that keeps nothing outside the instance".
typealias MyMemoryStore = InMemoryPostStore

/// The Conformance pages' "your error".
enum MyError: Error {
    case lockFailed(Int32)
}

/// The subject the Conformance article declares, which the checks' pages run.
typealias MyEngineSubject = Snippets_PostStoreConformance_PostStoreConformance_docc_PostStoreConformance_md
    .MyEngineSubject

/// The counter the Embedding and Testing article declares, which `withDependencies(_:operation:)`'s page uses.
typealias PostCounter = Snippets_PostStore_PostStore_docc_EmbeddingAndTesting_md.PostCounter
