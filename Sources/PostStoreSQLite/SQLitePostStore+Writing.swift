public import PostStore
import PostStoreCSQLite
import PostStoreEngines

extension SQLitePostStore {
    @discardableResult
    public func apply(_ changes: PostChangeSet) async throws -> WriteSummary {
        try await apply(changes, streaming: PostStream([])) { _ in }
    }

    /// Applies a change set and a stream of upserts batch by batch in one transaction: memory for one batch and
    /// the set of ids seen, whatever the stream's size. The store's one write entry point: ``apply(_:)`` calls it
    /// with an empty stream, and `apply(_:streaming:)` is `PostStoreProtocol`'s default, which calls it too.
    ///
    /// Into an empty store posts are inserted without looking up each id first, and the search index is built in
    /// one pass at the end (several times cheaper than adding the posts one by one). The phases that follow the
    /// stream's reading are reported: `indexing` when posts go into an empty store (the index is built after them)
    /// and `pruning`. The posts are written as the stream is read, in the stream's own phase.
    @discardableResult
    public func apply(
        _ changes: PostChangeSet,
        streaming upserts: PostStream,
        progress: @escaping @Sendable (WorkProgress) -> Void
    ) async throws -> WriteSummary {
        try changes.validate()
        return try await write { tables in
            try tables.rebuildSearchIndexIfStaleAndKept(progress: progress)
            if let source = changes.syncState?.source, changes.requiredChangeToken != nil {
                try changes.checkRequiredChangeToken(stored: try tables.storedChangeToken(for: source))
            }
            try changes.checkRequiredPosts { id in try tables.storedPost(id: id) }
            var reader = try upserts.makeReader()
            let log = try tables.storedChangeLog()
            let (summary, overwritten) = try tables.perform(
                changes,
                streaming: &reader,
                writing: true,
                revision: log.revision + 1,
                progress: progress
            )
            try tables.recordWrite(of: changes, summary, after: log, overwritten: overwritten)
            return summary
        }
    }

    public nonisolated func preview(_ changes: PostChangeSet) async throws -> WriteSummary {
        try await preview(changes, streaming: PostStream([]))
    }

    public nonisolated func preview(
        _ changes: PostChangeSet,
        streaming upserts: PostStream
    ) async throws
        -> WriteSummary
    {
        try changes.validate()
        return try await read { tables in
            try tables.connection.readTransaction {
                var reader = try upserts.makeReader()
                return try tables.perform(changes, streaming: &reader, writing: false, revision: 0) { _ in }.summary
            }
        }
    }

    public func removeAll() async throws {
        try await write { tables in
            // An empty index is current, whether or not this store keeps it.
            try tables.connection.execute(
                """
                DELETE FROM posts;
                DELETE FROM sync_state;
                DELETE FROM poststore_settings WHERE key = 'search_index';
                DELETE FROM post_tombstones;
                DELETE FROM post_writes;
                """
            )
            try tables.searchIndex.removeAll()
            try tables.countRevision()
            try tables.startChangeHistoryAtTheRevision()
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
        try await write { tables in try tables.searchIndex.rebuild(progress: progress) }
    }

    /// Rebuilds the search index with or without counting its rows for progress: the benchmark compares the two.
    @_spi(Benchmarks) public func rebuildSearchIndex(reportsProgress: Bool) async throws {
        try await write { tables in try tables.searchIndex.rebuild(reportsProgress: reportsProgress) }
    }

}

extension SQLitePostTables {

    /// Counts what a change set and a stream of upserts do to the posts and, when `writing`, does it as
    /// `revision`; the caller holds a transaction (a write transaction when `writing`, which is rolled back when
    /// this throws).
    ///
    /// Deletions are decided once every upsert is known, and checked against the change set's limit before any is
    /// made.
    ///
    /// - Returns: The counts, and the revisions of the versions the write overwrote.
    func perform(
        _ changes: PostChangeSet,
        streaming reader: inout some PostReader,
        writing: Bool,
        revision: Int,
        progress: (WorkProgress) -> Void
    ) throws -> (summary: WriteSummary, overwritten: OverwrittenRevisions) {
        let isBulkLoad = try holdsNoPosts()
        let upserts = try upsert(
            changes,
            streaming: &reader,
            isBulkLoad: isBulkLoad,
            writing: writing,
            revision: revision
        )
        var summary = upserts.summary
        var overwritten = upserts.overwritten
        let deleted = try idsToDelete(
            for: changes,
            upserted: upserts.ids,
            // The posts before this change set's inserts, which are made only when writing.
            insertedSoFar: writing ? summary.inserted : 0
        )
        summary.deleted = deleted.count
        if writing {
            try delete(
                ids: deleted,
                revision: revision,
                overwritten: &overwritten,
                reportingPruning: changes.prune,
                progress: progress
            )
            if isBulkLoad, keepsSearchIndex, summary.inserted > 0 {
                try searchIndex.rebuild(progress: progress)
            }
        }
        return (summary, overwritten)
    }

    /// Whether the posts table is empty: a bulk load, which needs no lookups and whose search index is built in
    /// one pass after the posts. (Counting the posts would read the whole table; a 304 re-sync of a million posts
    /// would pay for it.)
    private func holdsNoPosts() throws(SQLiteError) -> Bool {
        try connection.withStatement("SELECT NOT EXISTS (SELECT 1 FROM posts)") { statement throws(SQLiteError) in
            _ = try statement.step()
            return statement.int(at: 0) == 1
        }
    }

    /// Upserts (or, when not `writing`, counts) the change set's posts, then the stream's, batch by batch.
    private func upsert(
        _ changes: PostChangeSet,
        streaming reader: inout some PostReader,
        isBulkLoad: Bool,
        writing: Bool,
        revision: Int
    ) throws -> SQLiteUpsertRun {
        let writer = try SQLitePostWriter(
            connection: connection,
            searchIndex: keepsSearchIndex && !isBulkLoad ? searchIndex : nil,
            revision: revision
        )
        var run = SQLiteUpsertRun(writer: writer, changes: changes, isBulkLoad: isBulkLoad, writing: writing)
        try run.upsert(changes.upserts)
        while let batch = try reader.nextBatch() {
            try run.upsert(batch)
        }
        return run
    }

    /// The stored ids a change set deletes, once no upserted id repeats, checked against its deletion limit.
    ///
    /// - Parameters:
    ///   - upserted: Every upserted id, in order.
    ///   - insertedSoFar: How many of the change set's posts the transaction has already inserted.
    private func idsToDelete(for changes: PostChangeSet, upserted: [Int], insertedSoFar: Int) throws -> [Int] {
        let sortedIds = try upserted.sortedCheckingUpsertRepeats()
        return try changes.deletedIds(
            // Counted only when something may be deleted.
            storedCount: changes.prune || !changes.deletions.isEmpty ? try storedCount() - insertedSoFar : 0,
            storedIds: storedIds,
            isStored: { id throws(SQLiteError) in try storedPost(id: id) != nil },
            isUpserted: { sortedIds.containsSorted($0) }
        )
    }

    /// Deletes stored posts, leaving a tombstone of `revision` for each, reporting a `pruning` phase when the
    /// change set prunes.
    private func delete(
        ids: [Int],
        revision: Int,
        overwritten: inout OverwrittenRevisions,
        reportingPruning reports: Bool,
        progress: (WorkProgress) -> Void
    ) throws(SQLiteError) {
        var pruning = WorkProgress(phase: .pruning, completed: 0, total: ids.count)
        if reports, !ids.isEmpty { progress(pruning) }
        // An upsert, not INSERT OR REPLACE: a REPLACE opens a statement journal, and each one makes FTS5 flush the
        // search index's pending deletions to disk, a segment per post (pruning 10,000 posts took 7.7 s, not 0.6).
        let tombstone = try connection.cachedStatement(
            """
            INSERT INTO post_tombstones (id, revision) VALUES (?, ?)
            ON CONFLICT (id) DO UPDATE SET revision = excluded.revision
            """
        )
        for id in ids {
            // Present, since the transaction began before `idsToDelete` looked, unless the file is damaged (its
            // id index and its table disagree).
            guard let stored = try storedPost(id: id) else {
                throw SQLiteError(extendedCode: SQLITE_CORRUPT, message: "post \(id) is listed but cannot be read")
            }
            overwritten.add(try delete(stored))
            defer { tombstone.reset() }
            try tombstone.bind(id, at: 1)
            try tombstone.bind(revision, at: 2)
            try tombstone.run()
            pruning.completed += 1
            if reports, pruning.completed % Self.pruningReportInterval == 0 { progress(pruning) }
        }
        if reports, !ids.isEmpty { progress(pruning.finished) }
    }

    /// Records what a write did besides its posts: a new revision, with every `ETag` cleared and the change
    /// history kept, when it changed any post; the change set's sync state; and a search index this store does not
    /// keep marked stale.
    func recordWrite(
        of changes: PostChangeSet,
        _ summary: WriteSummary,
        after log: TableChangeLog,
        overwritten: OverwrittenRevisions
    ) throws {
        if summary.changedAnything {
            try connection.execute(
                "UPDATE sync_state SET etag = NULL, change_token = NULL WHERE etag IS NOT NULL OR change_token IS NOT NULL"
            )
            try recordChanges(after: log, overwritten: overwritten)
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
    }

    private func storedIds() throws(SQLiteError) -> [Int] {
        try connection.withStatement("SELECT id FROM posts") { statement throws(SQLiteError) in
            try statement.rows { $0.int(at: 0) }
        }
    }

    /// Rebuilds a stale search index before a write of a store that keeps it, so the write's own index changes
    /// apply to a current index. (A store that does not keep it marks it stale at the end of a write that changed
    /// posts.)
    func rebuildSearchIndexIfStaleAndKept(progress: (WorkProgress) -> Void) throws(SQLiteError) {
        if keepsSearchIndex, try !searchIndex.isCurrent() {
            try searchIndex.rebuild(progress: progress)
        }
    }

    /// How many deletions a pruning phase makes between two reports.
    private static let pruningReportInterval = 4096

    /// Deletes a stored post.
    ///
    /// - Returns: The revision of the deleted version.
    private func delete(_ stored: Post) throws(SQLiteError) -> Int {
        let revision = try connection.withStatement("DELETE FROM posts WHERE id = ? RETURNING revision") {
            statement throws(SQLiteError) in
            try statement.bind(stored.id)
            return try statement.rows { $0.int(at: 0) }[0]
        }
        if keepsSearchIndex { try searchIndex.remove(stored) }
        return revision
    }
}
