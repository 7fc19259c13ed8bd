import PostStore
package import PostStoreEngines

extension SQLitePostStore: StoreDescribing {
    /// The post count, the sync states and the schema version from one read transaction on the store's own
    /// connection.
    package func describe() throws -> StoreDescription {
        try read {
            try connection.readTransaction {
                StoreDescription(
                    count: try storedCount(),
                    syncStates: try storedSyncStates(),
                    formatVersion: try SQLiteMigrator().status(connection).applied.last ?? 0
                )
            }
        }
    }
}
