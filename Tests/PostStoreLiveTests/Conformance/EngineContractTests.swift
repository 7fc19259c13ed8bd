import PostStore
import PostStoreConformance
import PostStoreEngines
import PostStoreTestSupport
import Testing

/// The contract suite (`PostStoreContract`) on every engine of the table (`StoreEngine.all`) and the SQLite engine
/// without its search index, the way an engine outside this package runs it: each check on a new store in a
/// temporary folder of its own. An engine added to the table runs every check with no change here.
@Suite("PostStoreProtocol contract")
struct EngineContractTests {
    @Test(arguments: StoreKind.allCases, PostStoreContract.checks)
    func contract(kind: StoreKind, check: ContractCheck) async throws {
        try await check.run(on: kind)
    }

    /// The one check of the suite an engine outside this package cannot take (``StoreDescribing`` is the
    /// package's own) is skipped for a store that does not describe itself: every engine of the table must.
    @Test(arguments: StoreKind.allCases)
    func everyEngineDescribesItself(kind: StoreKind) throws {
        let directory = try TemporaryDirectory()
        defer { directory.keepAlive() }
        #expect(try kind.makeStore(in: directory) is any StoreDescribing)
    }

    @Test func everyCheckHasItsOwnName() {
        let names = PostStoreContract.checks.map(\.name)
        #expect(Set(names).count == names.count)
    }
}
