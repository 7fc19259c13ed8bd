import PostStore
import PostStoreConformance
import PostStoreTestSupport
import Testing

/// The contract suite can fail: engines broken on purpose, each run through the checks that hold the rule it
/// breaks, fail them (`withKnownIssue` passes only when the checks record an issue).
@Suite("The contract suite catches broken engines")
struct BrokenEngineContractTests {
    @Test(
        "an engine that counts unchanged posts as updated fails the counting checks",
        arguments: checks(named: [
            "upsertCountsInsertedUpdatedAndUnchanged",
            "pruneLeavesExactlyTheUpsertedOnesAndSearchForgetsTheRest",
            "previewReturnsWhatApplyWillAndWritesNothing",
            "streamedWritesMatchArrayWrites",
        ])
    )
    func miscountedUnchangedPostsAreCaught(check: ContractCheck) async {
        await withKnownIssue("MiscountingPostStore counts unchanged posts as updated") {
            try await check.run(on: BrokenSubject { MiscountingPostStore() })
        }
    }

    @Test(
        "an engine that ignores a query's sort fails the query checks",
        arguments: checks(named: ["querySortsEveryWayWithTiesById", "queryWindowsAfterSorting"])
    )
    func ignoredSortsAreCaught(check: ContractCheck) async {
        await withKnownIssue("UnsortedPostStore answers every query in id order") {
            try await check.run(on: BrokenSubject { UnsortedPostStore() })
        }
    }

    /// The same checks pass on the engine the broken ones wrap, so what fails above is the breakage.
    @Test(
        "the engine the broken ones wrap passes the same checks",
        arguments: checks(named: [
            "upsertCountsInsertedUpdatedAndUnchanged",
            "pruneLeavesExactlyTheUpsertedOnesAndSearchForgetsTheRest",
            "previewReturnsWhatApplyWillAndWritesNothing",
            "streamedWritesMatchArrayWrites",
            "querySortsEveryWayWithTiesById",
            "queryWindowsAfterSorting",
        ])
    )
    func theWrappedEnginePasses(check: ContractCheck) async throws {
        try await check.run(on: BrokenSubject { InMemoryPostStore() })
    }

    static func checks(named names: [String]) -> [ContractCheck] {
        let checks = PostStoreContract.checks.filter { names.contains($0.name) }
        precondition(checks.count == names.count, "a check was renamed: \(names)")
        return checks
    }
}

/// A subject whose stores keep nothing outside the instance: the few lines an outside engine writes.
private struct BrokenSubject: ContractSubject {
    let make: @Sendable () -> any PostStoreProtocol

    func makeStore(at _: Void, options _: ContractStoreOptions) -> any PostStoreProtocol { make() }
}

/// An in-memory store that counts every unchanged post as updated.
private struct MiscountingPostStore: ForwardsReadsToMemory {
    let base = InMemoryPostStore()

    func apply(_ changes: PostChangeSet) async throws -> WriteSummary {
        Self.miscounted(try await base.apply(changes))
    }

    func preview(_ changes: PostChangeSet) async throws -> WriteSummary {
        Self.miscounted(try await base.preview(changes))
    }

    private static func miscounted(_ summary: WriteSummary) -> WriteSummary {
        WriteSummary(
            inserted: summary.inserted,
            updated: summary.updated + summary.unchanged,
            deleted: summary.deleted
        )
    }
}

/// An in-memory store that answers every query in id order, whatever its sort (a window still applies, to the
/// wrong order).
private struct UnsortedPostStore: ForwardsReadsToMemory {
    let base = InMemoryPostStore()

    func query(_ query: PostQuery) async throws -> [Post] {
        var unsorted = query
        unsorted.sort = .idAscending
        return try await base.query(unsorted)
    }

    func apply(_ changes: PostChangeSet) async throws -> WriteSummary { try await base.apply(changes) }
    func preview(_ changes: PostChangeSet) async throws -> WriteSummary { try await base.preview(changes) }
    func post(id: Int) async throws -> Post? { try await base.post(id: id) }
    func count() async throws -> Int { try await base.count() }
    func removeAll() async throws { try await base.removeAll() }
    func syncState(for source: String) async throws -> SyncState? { try await base.syncState(for: source) }
    func syncStates() async throws -> [SyncState] { try await base.syncStates() }
}
