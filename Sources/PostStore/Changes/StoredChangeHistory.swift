/// Where a store that keeps its change history in tables (SQLite, PostgreSQL) stands: its identity, its revision,
/// the oldest revision its history answers from, and the history's limit, read in one statement.
package struct StoredChangeHistory: Sendable, Equatable {
    package let storeID: String
    package let revision: Int
    package let floor: Int
    let limit: Int

    package init(storeID: String, revision: Int, floor: Int, limit: Int) {
        self.storeID = storeID
        self.revision = revision
        self.floor = floor
        self.limit = limit
    }

    /// The token of the store's state.
    package var token: ChangeToken { ChangeToken(storeID: storeID, revision: revision) }

    /// How far back the history reaches, and its limit.
    package var summary: ChangeHistorySummary {
        ChangeHistorySummary(oldest: ChangeToken(storeID: storeID, revision: floor), newest: token, limit: limit)
    }

    /// Refuses a token this history cannot answer (``ChangeHistory/check(_:storeID:floor:head:)``).
    package func check(_ token: ChangeToken) throws(PostStoreError) {
        try ChangeHistory.check(token, storeID: storeID, floor: floor, head: revision)
    }

    /// The floor to move to once the next write (revision + 1) is recorded, when it is time to compact.
    package var floorAfterNextWrite: Int? {
        ChangeHistory.compactedFloor(revision: revision + 1, floor: floor, limit: limit)
    }
}
