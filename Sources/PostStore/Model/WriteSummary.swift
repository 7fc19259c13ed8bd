/// What a write did, counted per post.
public struct WriteSummary: Sendable, Hashable, Codable {
    /// Posts that did not exist before.
    public var inserted: Int
    /// Posts that existed with different content and were replaced.
    public var updated: Int
    /// Posts that existed with exactly the same content and were not written.
    public var unchanged: Int
    /// Posts that existed and were deleted.
    public var deleted: Int

    /// Creates a summary.
    ///
    /// - Parameters:
    ///   - inserted: Posts that did not exist before.
    ///   - updated: Posts that were replaced.
    ///   - unchanged: Posts that were already up to date.
    ///   - deleted: Posts that were deleted.
    public init(inserted: Int = 0, updated: Int = 0, unchanged: Int = 0, deleted: Int = 0) {
        self.inserted = inserted
        self.updated = updated
        self.unchanged = unchanged
        self.deleted = deleted
    }

    /// Whether the write changed any post.
    public var changedAnything: Bool { inserted + updated + deleted > 0 }
}
