package import PostStore

extension SQLitePostStore: StoreDescribing {
    /// The post count and the sync states from one read transaction, then the schema version.
    package func describe() throws -> StoreDescription {
        let (count, syncStates) = try read {
            try connection.readTransaction { (try storedCount(), try storedSyncStates()) }
        }
        return StoreDescription(
            count: count,
            syncStates: syncStates,
            formatVersion: try Self.schemaStatus(ofStoreAt: path).version
        )
    }
}
