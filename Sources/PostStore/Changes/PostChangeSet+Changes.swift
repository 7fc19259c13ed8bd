extension PostChangeSet {
    /// The change set that applies an answer of a changes feed to a copy: its posts upserted and its deletions
    /// made.
    ///
    /// - Parameters:
    ///   - changes: The answer.
    ///   - syncState: A sync state to save in the same step, such as one recording ``PostChanges/next``.
    public init(changes: PostChanges, syncState: SyncState? = nil) {
        self.init(upserts: changes.posts, deletions: Set(changes.deletedIds), syncState: syncState)
    }
}
