extension Array where Element == SyncState {
    /// Sorts sync states as ``PostStoreProtocol/syncStates()`` returns them: most recent first, ties by source.
    func sortedMostRecentFirst() -> [SyncState] {
        sorted { lhs, rhs in
            if lhs.syncedAtMilliseconds != rhs.syncedAtMilliseconds {
                return lhs.syncedAtMilliseconds > rhs.syncedAtMilliseconds
            }
            return lhs.source.utf8.lexicographicallyPrecedes(rhs.source.utf8)
        }
    }
}
