import PostStore
package import PostStoreEngines

extension SQLitePostStore: StoreDescribing {
    /// The post count, the sync states and the schema version from one read transaction.
    package nonisolated func describe() async throws -> StoreDescription {
        try await read { tables in
            try tables.connection.readTransaction {
                StoreDescription(
                    count: try tables.storedCount(),
                    syncStates: try tables.storedSyncStates(),
                    formatVersion: try SQLiteMigrator().status(tables.connection).applied.last ?? 0
                )
            }
        }
    }
}
