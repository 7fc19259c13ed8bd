package import PostStore

/// A store that says what it is and holds in one committed state of its data, as `poststore info` shows it: two
/// separate reads could fall on either side of another process's write.
///
/// Every engine of the composition root's table conforms (a test checks it); `info` refuses a store that does not.
package protocol StoreDescribing: PostStoreProtocol {
    /// The post count, the sync states and the version of the store's format, from one state of the store.
    func describe() async throws -> StoreDescription
}

/// What a store is and holds, from one state of its data.
package struct StoreDescription: Sendable, Equatable {
    /// How many posts it holds.
    package var count: Int
    /// Its sync states, the most recent first.
    package var syncStates: [SyncState]
    /// The version of its format or schema as its file records it; `nil` when the engine has none (in memory) or
    /// the file does not exist yet.
    package var formatVersion: Int?

    package init(count: Int, syncStates: [SyncState], formatVersion: Int?) {
        self.count = count
        self.syncStates = syncStates
        self.formatVersion = formatVersion
    }
}
