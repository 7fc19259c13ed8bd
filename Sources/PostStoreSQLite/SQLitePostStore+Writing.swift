public import PostStore
import PostStoreCSQLite

extension SQLitePostStore {
    @discardableResult
    public func apply(_ changes: PostChangeSet) async throws -> WriteSummary {
        try await apply(changes, streaming: PostStream([]))
    }

    /// Applies a change set and a stream of upserts batch by batch in one transaction: memory for one batch and
    /// the set of ids seen, whatever the stream's size.
    ///
    /// Into an empty store posts are inserted without looking up each id first, and the search index is built in
    /// one pass at the end (several times cheaper than adding the posts one by one).
    @discardableResult
    public func apply(_ changes: PostChangeSet, streaming upserts: PostStream) async throws -> WriteSummary {
        try await apply(changes, streaming: upserts) { _ in }
    }

    /// Applies a change set and a stream as ``apply(_:streaming:)`` does, reporting the phases that follow the
    /// stream's reading: `indexing` when posts go into an empty store (the index is built after them) and
    /// `pruning`. The posts are written as the stream is read, in the stream's own phase.
    @discardableResult
    public func apply(
        _ changes: PostChangeSet,
        streaming upserts: PostStream,
        progress: @escaping @Sendable (WorkProgress) -> Void
    ) async throws -> WriteSummary {
        try changes.validate()
        return try await write {
            try rebuildSearchIndexIfStaleAndKept(progress: progress)
            var reader = try upserts.makeReader()
            let summary = try perform(changes, streaming: &reader, writing: true, progress: progress)
            if summary.changedAnything {
                try connection.execute("UPDATE sync_state SET etag = NULL WHERE etag IS NOT NULL")
                try countRevision()
            }
            if let state = try changes.syncState(
                after: summary,
                storedETag: storedETag,
                latestSyncedAt: latestSyncedAt(otherThan:)
            ) {
                try save(state)
            }
            if !keepsSearchIndex, summary.changedAnything, try searchIndex.isCurrent() {
                try searchIndex.markStale()
            }
            return summary
        }
    }

    public func preview(_ changes: PostChangeSet) throws -> WriteSummary {
        try preview(changes, streaming: PostStream([]))
    }

    public func preview(_ changes: PostChangeSet, streaming upserts: PostStream) throws -> WriteSummary {
        try changes.validate()
        return try read {
            try connection.readTransaction {
                var reader = try upserts.makeReader()
                return try perform(changes, streaming: &reader, writing: false) { _ in }
            }
        }
    }

    public func removeAll() async throws {
        try await write {
            // An empty index is current, whether or not this store keeps it.
            try connection.execute(
                """
                DELETE FROM posts;
                DELETE FROM sync_state;
                DELETE FROM poststore_settings WHERE key = 'search_index';
                """
            )
            try searchIndex.removeAll()
            try countRevision()
        }
    }

    /// Rebuilds the search index from the posts, in one transaction.
    ///
    /// PostStore keeps the index itself, so this is needed only after posts were written by another tool, such as
    /// the `sqlite3` shell: until then such posts may be missing from search results. (When PostStore itself later
    /// changes or deletes such a post, FTS5 notices the mismatch and that write rebuilds the index by itself.)
    ///
    /// - Parameter progress: Called as the index is built (`indexing`, in rows, every 10,000 rows).
    /// - Throws: `PostStoreError`.
    public func rebuildSearchIndex(progress: @escaping @Sendable (WorkProgress) -> Void = { _ in }) async throws {
        try await write { try searchIndex.rebuild(progress: progress) }
    }

    /// Rebuilds the search index with or without counting its rows for progress: the benchmark compares the two.
    @_spi(Benchmarks) public func rebuildSearchIndex(reportsProgress: Bool) async throws {
        try await write { try searchIndex.rebuild(reportsProgress: reportsProgress) }
    }

    // MARK: - Statements

    /// Counts what a change set and a stream of upserts do to the posts and, when `writing`, does it; the caller
    /// holds a transaction (a write transaction when `writing`, which is rolled back when this throws).
    ///
    /// Deletions are decided once every upsert is known, and checked against the change set's limit before any is
    /// made.
    private func perform(
        _ changes: PostChangeSet,
        streaming reader: inout some PostReader,
        writing: Bool,
        progress: (WorkProgress) -> Void
    ) throws -> WriteSummary {
        // An empty store needs no lookups, and its search index is built in one pass after the posts. (Counting
        // the posts would read the whole table; a 304 re-sync of a million posts would pay for it.)
        let isBulkLoad = try connection.withStatement("SELECT NOT EXISTS (SELECT 1 FROM posts)") {
            statement throws(SQLiteError) in
            _ = try statement.step()
            return statement.int(at: 0) == 1
        }
        let writer = try SQLitePostWriter(
            connection: connection,
            searchIndex: keepsSearchIndex && !isBulkLoad ? searchIndex : nil
        )
        var summary = WriteSummary()
        // Checked for repeats after the stream: sorting once costs less than a hash-table lookup per post.
        var upserted: [Int] = []
        upserted.reserveCapacity(changes.upserts.count)
        func upsert(_ posts: [Post]) throws {
            for post in posts {
                upserted.append(post.id)
                if changes.deletions.contains(post.id) {
                    throw PostStoreError(
                        .constraintViolation,
                        "Post \(post.id) is both upserted (at index \(upserted.count - 1)) and deleted in one batch."
                    )
                }
                if isBulkLoad {
                    do {
                        if writing { try writer.insert(post) }
                    } catch let error as SQLiteError where error.primaryCode == SQLITE_CONSTRAINT {
                        // A repeated id, found by the table before the check after the stream: name it the same way.
                        _ = try upserted.sortedCheckingUpsertRepeats()
                        throw error
                    }
                    summary.inserted += 1
                    continue
                }
                switch try writer.upsert(post, writing: writing) {
                case .inserted: summary.inserted += 1
                case .updated: summary.updated += 1
                case .unchanged: summary.unchanged += 1
                }
            }
        }
        try upsert(changes.upserts)
        while let batch = try reader.nextBatch() {
            try upsert(batch)
        }
        let sortedIds = try upserted.sortedCheckingUpsertRepeats()
        let deleted = try changes.deletedIds(
            // Counted only when something may be deleted: the posts before this change set's inserts (made only
            // when writing).
            storedCount: changes.prune || !changes.deletions.isEmpty
                ? try storedCount() - (writing ? summary.inserted : 0) : 0,
            storedIds: storedIds,
            isStored: { id throws(SQLiteError) in try storedPost(id: id) != nil },
            isUpserted: { sortedIds.containsSorted($0) }
        )
        summary.deleted = deleted.count
        if writing {
            var pruning = WorkProgress(phase: .pruning, completed: 0, total: deleted.count)
            if changes.prune, !deleted.isEmpty { progress(pruning) }
            for id in deleted {
                // Present: the transaction began before `deletedIds` looked.
                try delete(storedPost(id: id)!)
                pruning.completed += 1
                if changes.prune, pruning.completed % Self.pruningReportInterval == 0 { progress(pruning) }
            }
            if changes.prune, !deleted.isEmpty { progress(pruning.finished) }
            if isBulkLoad, keepsSearchIndex, summary.inserted > 0 {
                try searchIndex.rebuild(progress: progress)
            }
        }
        return summary
    }

    private func storedIds() throws(SQLiteError) -> [Int] {
        try connection.withStatement("SELECT id FROM posts") { statement throws(SQLiteError) in
            try statement.rows { $0.int(at: 0) }
        }
    }

    /// Rebuilds a stale search index before a write of a store that keeps it, so the write's own index changes
    /// apply to a current index. (A store that does not keep it marks it stale at the end of a write that changed
    /// posts.)
    private func rebuildSearchIndexIfStaleAndKept(progress: (WorkProgress) -> Void) throws(SQLiteError) {
        if keepsSearchIndex, try !searchIndex.isCurrent() {
            try searchIndex.rebuild(progress: progress)
        }
    }

    /// How many deletions a pruning phase makes between two reports.
    private static let pruningReportInterval = 4096

    private func delete(_ stored: Post) throws(SQLiteError) {
        try connection.withStatement("DELETE FROM posts WHERE id = ?") { statement throws(SQLiteError) in
            try statement.bind(stored.id)
            try statement.run()
        }
        if keepsSearchIndex { try searchIndex.remove(stored) }
    }
}
