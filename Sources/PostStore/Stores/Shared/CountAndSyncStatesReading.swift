/// A store that reads its post count and its sync states from one committed state of its data, as `poststore info`
/// shows them: two separate reads could fall on either side of another process's write.
package protocol CountAndSyncStatesReading: PostStoreProtocol {
    /// The number of posts and the sync states, newest first, both from one state of the store.
    func countAndSyncStates() async throws -> (count: Int, syncStates: [SyncState])
}
