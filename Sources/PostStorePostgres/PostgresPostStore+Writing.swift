public import PostStore
import PostStoreEngines
import PostgresNIO

extension PostgresPostStore: PostStoreProtocol {
    @discardableResult
    public func apply(_ changes: PostChangeSet) async throws -> WriteSummary {
        try await apply(changes, streaming: PostStream([])) { _ in }
    }

    /// Applies a change set and a stream of upserts in one transaction: the posts are copied into a temporary
    /// table as they are read (into the posts table itself when the store is empty), then one statement deletes the
    /// pruned posts and one compares and writes the changed and new ones, each counting what it did. The store's one
    /// write entry point: ``apply(_:)`` calls it with an empty stream, and `apply(_:streaming:)` is
    /// `PostStoreProtocol`'s default, which calls it too.
    ///
    /// The phases that follow the stream's reading are reported (the posts are copied as they are read, in the
    /// stream's own phase): `pruning` (first, so that a change set over its deletion limit is refused before any
    /// post is written), `writing` (the changed and new posts, from the copy into the store's table; its total is
    /// known at its end) and `indexing` (when the search index is missing).
    @discardableResult
    public func apply(
        _ changes: PostChangeSet,
        streaming upserts: PostStream,
        progress: @escaping @Sendable (WorkProgress) -> Void
    ) async throws -> WriteSummary {
        try changes.validate()
        try Self.checkKeepable(changes.syncState)
        return try await write { session in
            if let source = changes.syncState?.source, changes.requiredChangeToken != nil {
                try changes.checkRequiredChangeToken(stored: try await storedChangeToken(for: source, in: session))
            }
            if !changes.requiredPosts.isEmpty {
                let ids = changes.requiredPosts.map(\.id)
                let stored = try await posts(
                    "SELECT id, user_id, title, body FROM \(unescaped: names.posts) WHERE id = ANY(\(ids))",
                    in: session
                )
                let byId = Dictionary(stored.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
                try changes.checkRequiredPosts { byId[$0] }
            }
            let log = try await storedChangeLog(in: session)
            let (summary, overwritten) = try await perform(
                changes,
                streaming: upserts,
                in: session,
                revision: log.revision + 1,
                progress: progress
            )
            if keepsSearchIndex {
                try await PostgresSearchIndex(names: names).buildIfMissing(in: session, progress: progress)
            }
            try await recordWrite(of: changes, summary, after: log, overwritten: overwritten, in: session)
            return summary
        }
    }

    public func preview(_ changes: PostChangeSet) async throws -> WriteSummary {
        try await preview(changes, streaming: PostStream([]))
    }

    /// Works out a streamed write in a transaction that is rolled back: the posts are copied into a temporary table
    /// and compared, and nothing else is written.
    public func preview(_ changes: PostChangeSet, streaming upserts: PostStream) async throws -> WriteSummary {
        try changes.validate()
        try Self.checkKeepable(changes.syncState)
        return try await read { session in
            try await session.snapshot { session in
                try await perform(changes, streaming: upserts, in: session, revision: nil) { _ in }.summary
            }
        }
    }

    public func removeAll() async throws {
        try await write { session in
            try await session.execute("DELETE FROM \(unescaped: names.posts)")
            try await session.execute("DELETE FROM \(unescaped: names.syncState)")
            try await countRevision(in: session)
            try await startChangeHistoryAtTheRevision(in: session)
        }
    }

    // MARK: - Statements

    /// Counts what a change set and a stream of upserts do to the posts and, when writing (given the `revision` to
    /// write at), does it; the caller holds a transaction (with the write lock when writing), rolled back when this
    /// throws.
    ///
    /// - Returns: The counts, and the revisions of the versions the write overwrote.
    private func perform(
        _ changes: PostChangeSet,
        streaming upserts: PostStream,
        in session: PostgresSession,
        revision: Int?,
        progress: (WorkProgress) -> Void
    ) async throws -> (summary: WriteSummary, overwritten: OverwrittenRevisions) {
        let isBulkLoad = try await prepareForUpserts(in: session, writing: revision != nil)
        let upserted = try await copy(
            changes,
            upserts,
            into: isBulkLoad ? "posts" : "incoming",
            revision: isBulkLoad ? revision : nil,
            session: session
        )
        if isBulkLoad {
            return (try await finishBulkLoad(of: upserted, in: session), OverwrittenRevisions())
        }
        // A temporary table has no statistics until it is analyzed, and the joins below need them.
        if upserted > 0 { try await session.execute("ANALYZE pg_temp.incoming") }
        guard let revision else {
            return (try await compareIncoming(upserted, with: changes, in: session), OverwrittenRevisions())
        }
        // Writing counts as it goes, each statement returning what it did: the deletions first, so that a change set
        // over its deletion limit is refused before the posts are written.
        var overwritten = OverwrittenRevisions()
        let deleted = try await deletePosts(
            of: changes,
            revision: revision,
            overwritten: &overwritten,
            in: session,
            progress: progress
        )
        let (inserted, updated) = try await writeIncoming(
            upserted,
            revision: revision,
            overwritten: &overwritten,
            in: session,
            progress: progress
        )
        let summary = WriteSummary(
            inserted: inserted,
            updated: updated,
            unchanged: upserted - inserted - updated,
            deleted: deleted
        )
        return (summary, overwritten)
    }

    /// Readies the session for a write's upserts and tells whether they go straight into the posts table (when
    /// writing into an empty store, where there is nothing to compare or prune) or into a temporary table,
    /// `incoming`, which it creates.
    private func prepareForUpserts(in session: PostgresSession, writing: Bool) async throws -> Bool {
        // The copy names its table unqualified: the store's schema first, then the session's temporary tables.
        try await session.execute("SET LOCAL search_path TO \(unescaped: names.quotedSchema)")
        let isEmpty = try await session.value(
            "SELECT NOT EXISTS (SELECT 1 FROM \(unescaped: names.posts))",
            as: Bool.self
        )
        let isBulkLoad = writing && isEmpty
        if !isBulkLoad {
            try await session.execute(
                """
                CREATE TEMPORARY TABLE incoming (
                    id bigint, user_id bigint, title text, body text, search_text text
                ) ON COMMIT DROP
                """
            )
        }
        return isBulkLoad
    }

    /// Copies the change set's upserts, then the stream's, into a table, and returns how many there were once no
    /// id repeats.
    ///
    /// - Throws: `constraintViolation` for a repeated id, or a post that is also deleted; what the stream's reader
    ///   throws.
    private func copy(
        _ changes: PostChangeSet,
        _ upserts: PostStream,
        into table: String,
        revision: Int?,
        session: PostgresSession
    ) async throws -> Int {
        var upserted: [Int] = []
        do {
            try await insert(changes, upserts, into: table, revision: revision, ids: &upserted, session: session)
        } catch  where PostgresFailure.sqlState(of: error) == "23505" {
            // A repeated id, found by the primary key before the check below: name it the same way.
            _ = try upserted.sortedCheckingUpsertRepeats()
            throw error
        }
        _ = try upserted.sortedCheckingUpsertRepeats()
        return upserted.count
    }

    /// The summary of posts copied straight into an empty store's table: all inserted.
    private func finishBulkLoad(of inserted: Int, in session: PostgresSession) async throws -> WriteSummary {
        // The planner's statistics of a table filled in one go, for the store's first searches.
        if inserted > 0 { try await session.execute("ANALYZE \(unescaped: names.posts)") }
        return WriteSummary(inserted: inserted)
    }

    /// Compares the posts copied into `incoming` with the stored ones, in one pass, for a preview: how many are new,
    /// changed and unchanged, and how many stored posts the change set deletes (named, or pruned because not in
    /// `incoming`), checked against its deletion limit.
    private func compareIncoming(
        _ upserted: Int,
        with changes: PostChangeSet,
        in session: PostgresSession
    ) async throws -> WriteSummary {
        let deletions = Array(changes.deletions)
        let deletes = changes.prune || !deletions.isEmpty
        guard upserted > 0 || deletes else { return WriteSummary() }
        // Counting deletions needs every stored post (a full join: one pass over both tables, where a join and
        // then a NOT EXISTS per stored post would scan the unindexed temporary table each time); upserts alone need
        // only the stored posts they name. The incoming ids are distinct (checked before).
        let joined =
            deletes
            ? "\(names.posts) p FULL JOIN pg_temp.incoming i ON i.id = p.id"
            : "pg_temp.incoming i LEFT JOIN \(names.posts) p ON p.id = i.id"
        let (inserted, updated, stored, named, pruned) = try await session.rows(
            """
            WITH compared AS (
                SELECT p.id AS stored_id, i.id AS incoming_id,
                    p.id IS NOT NULL AND i.id IS NOT NULL
                        AND \(unescaped: Self.differs(stored: "p", incoming: "i")) AS is_changed
                FROM \(unescaped: joined)
            )
            SELECT count(*) FILTER (WHERE stored_id IS NULL), count(*) FILTER (WHERE is_changed), count(stored_id),
                count(*) FILTER (WHERE stored_id = ANY(\(deletions))),
                count(*) FILTER (
                    WHERE \(changes.prune) AND incoming_id IS NULL AND NOT stored_id = ANY(\(deletions))
                )
            FROM compared
            """,
            as: (Int, Int, Int, Int, Int).self
        )[0]
        if deletes { try changes.deletionLimit.check(deletions: named + pruned, outOf: stored) }
        return WriteSummary(
            inserted: inserted,
            updated: updated,
            unchanged: upserted - inserted - updated,
            deleted: named + pruned
        )
    }

    /// Writes the changed and new posts of `incoming` into the store's table, in a `writing` phase, and returns how
    /// many were new and how many changed.
    ///
    /// One statement compares and writes: the changed and new posts alone (unchanged ones are neither written nor
    /// locked), an update where the id is stored; it removes the new ids' tombstones (a stored id has none), and
    /// counts what it did with the revisions of the versions it overwrote.
    private func writeIncoming(
        _ upserted: Int,
        revision: Int,
        overwritten: inout OverwrittenRevisions,
        in session: PostgresSession,
        progress: (WorkProgress) -> Void
    ) async throws -> (inserted: Int, updated: Int) {
        guard upserted > 0 else { return (0, 0) }
        progress(WorkProgress(phase: .writing, completed: 0, total: nil))
        let (inserted, updated, firstChanged, lastChanged, firstTombstone, lastTombstone) = try await session.rows(
            """
            WITH changed AS MATERIALIZED (
                SELECT i.id, i.user_id, i.title, i.body, i.search_text, s.revision AS stored_revision
                FROM pg_temp.incoming i LEFT JOIN \(unescaped: names.posts) s ON s.id = i.id
                WHERE s.id IS NULL OR \(unescaped: Self.differs(stored: "s", incoming: "i"))
            ), written AS (
                INSERT INTO \(unescaped: names.posts) AS p (id, user_id, title, body, search_text, revision)
                SELECT id, user_id, title, body, search_text, \(revision) FROM changed
                ON CONFLICT (id) DO UPDATE SET user_id = excluded.user_id, title = excluded.title,
                    body = excluded.body, search_text = excluded.search_text, revision = excluded.revision
            ), buried AS (
                DELETE FROM \(unescaped: names.tombstones) t USING changed c
                WHERE c.stored_revision IS NULL AND t.id = c.id
                RETURNING t.revision
            )
            SELECT count(*) FILTER (WHERE stored_revision IS NULL), count(stored_revision),
                min(stored_revision), max(stored_revision),
                (SELECT min(revision) FROM buried), (SELECT max(revision) FROM buried)
            FROM changed
            """,
            as: (Int, Int, Int?, Int?, Int?, Int?).self
        )[0]
        for revision in [firstChanged, lastChanged, firstTombstone, lastTombstone] { overwritten.add(revision) }
        let written = inserted + updated
        progress(WorkProgress(phase: .writing, completed: written, total: written, isFinished: true))
        return (inserted, updated)
    }

    /// The condition that a stored post (the alias `stored`) differs from an incoming one (`incoming`): what a
    /// preview counts as changed is what a write writes.
    private static func differs(stored: String, incoming: String) -> String {
        "(\(stored).user_id, \(stored).title, \(stored).body) IS DISTINCT FROM "
            + "(\(incoming).user_id, \(incoming).title, \(incoming).body)"
    }

    /// Deletes the posts a change set names and, when it prunes, those not in `incoming`, in a `pruning` phase, and
    /// returns how many, checked against the change set's deletion limit (a refusal rolls them back).
    private func deletePosts(
        of changes: PostChangeSet,
        revision: Int,
        overwritten: inout OverwrittenRevisions,
        in session: PostgresSession,
        progress: (WorkProgress) -> Void
    ) async throws -> Int {
        let deletions = Array(changes.deletions)
        guard changes.prune || !deletions.isEmpty else { return 0 }
        if changes.prune { progress(WorkProgress(phase: .pruning, completed: 0, total: nil)) }
        var deleted = 0
        if !deletions.isEmpty {
            deleted += try await deleteLeavingTombstones(
                named: deletions,
                revision: revision,
                overwritten: &overwritten,
                in: session
            )
        }
        if changes.prune {
            deleted += try await deleteLeavingTombstones(
                named: nil,
                revision: revision,
                overwritten: &overwritten,
                in: session
            )
        }
        if deleted > 0 {
            // The posts stored before: those left, and those just deleted (in this transaction).
            let left = try await session.value("SELECT count(*) FROM \(unescaped: names.posts)", as: Int.self)
            try changes.deletionLimit.check(deletions: deleted, outOf: left + deleted)
        }
        if changes.prune {
            progress(WorkProgress(phase: .pruning, completed: deleted, total: deleted, isFinished: true))
        }
        return deleted
    }

    /// Deletes the posts with the given ids, or (`nil`) those not in `incoming`, leaving a tombstone of `revision`
    /// for each, and returns how many.
    private func deleteLeavingTombstones(
        named ids: [Int]?,
        revision: Int,
        overwritten: inout OverwrittenRevisions,
        in session: PostgresSession
    ) async throws -> Int {
        let tombstones = """
            stones AS (
                INSERT INTO \(names.tombstones) (id, revision) SELECT id, \(revision) FROM gone
                ON CONFLICT (id) DO UPDATE SET revision = EXCLUDED.revision
            )
            SELECT count(*), min(revision), max(revision) FROM gone
            """
        let statement: PostgresQuery =
            if let ids {
                """
                WITH gone AS (DELETE FROM \(unescaped: names.posts) WHERE id = ANY(\(ids)) RETURNING id, revision),
                \(unescaped: tombstones)
                """
            } else {
                """
                WITH gone AS (
                    DELETE FROM \(unescaped: names.posts) p
                    WHERE NOT EXISTS (SELECT 1 FROM pg_temp.incoming i WHERE i.id = p.id)
                    RETURNING id, revision
                ),
                \(unescaped: tombstones)
                """
            }
        let (count, first, last) = try await session.rows(statement, as: (Int, Int?, Int?).self)[0]
        overwritten.add(first)
        overwritten.add(last)
        return count
    }

    /// Records what a write did besides its posts: a new revision with every `ETag` cleared when it changed any
    /// post, and the change set's sync state.
    private func recordWrite(
        of changes: PostChangeSet,
        _ summary: WriteSummary,
        after log: TableChangeLog,
        overwritten: OverwrittenRevisions,
        in session: PostgresSession
    ) async throws {
        if summary.changedAnything {
            try await session.execute(
                """
                UPDATE \(unescaped: names.syncState) SET etag = NULL, change_token = NULL
                WHERE etag IS NOT NULL OR change_token IS NOT NULL
                """
            )
            try await recordChanges(after: log, overwritten: overwritten, in: session)
        }
        guard let source = changes.syncState?.source else { return }
        let storedETag = try await storedETag(for: source, in: session)
        let latest = try await latestSyncedAt(otherThan: source, in: session)
        if let state = changes.syncState(
            after: summary,
            storedETag: { _ in storedETag },
            latestSyncedAt: { _ in latest }
        ) {
            try await save(state, in: session)
        }
    }

    /// Streams the change set's upserts, then the stream's, into a table (``PostgresPostBatch``), adding their ids to
    /// `upserted` in order.
    ///
    /// - Throws: `constraintViolation` for a post that is also deleted, `invalidData` for one that holds a NUL
    ///   character; what the stream's reader throws.
    private func insert(
        _ changes: PostChangeSet,
        _ upserts: PostStream,
        into table: String,
        revision: Int?,
        ids upserted: inout [Int],
        session: PostgresSession
    ) async throws {
        var reader = try upserts.makeReader()
        var batch: [Post]? = changes.upserts
        upserted.reserveCapacity(changes.upserts.count)
        try await PostgresPostBatch.stream(into: table, revision: revision, session: session) { rows in
            while let posts = batch {
                for post in posts {
                    if changes.deletions.contains(post.id) {
                        throw PostStoreError(
                            .constraintViolation,
                            "Post \(post.id) is both upserted (at index \(upserted.count)) and deleted in one batch."
                        )
                    }
                    try Self.checkKeepable(post, at: upserted.count)
                    upserted.append(post.id)
                    try await rows.append(post)
                }
                batch = try reader.nextBatch()
            }
        }
    }
}

extension PostgresPostStore {
    /// Refuses a post whose title or body holds a NUL character, which PostgreSQL's text cannot hold: the whole
    /// write fails and nothing of it is kept.
    ///
    /// - Parameters:
    ///   - post: The post.
    ///   - index: Its place among the write's upserts, for the message.
    /// - Throws: `invalidData`, naming the post.
    static func checkKeepable(_ post: Post, at index: Int) throws(PostStoreError) {
        for (field, text) in [("title", post.title), ("body", post.body)] where text.utf8.contains(0) {
            throw PostStoreError(
                .invalidData,
                "Post \(post.id) (at index \(index)) has a NUL character (U+0000) in its \(field), which a "
                    + "PostgreSQL store cannot keep; nothing was written."
            )
        }
    }

    /// Refuses a sync state whose source or ETag holds a NUL character, as ``checkKeepable(_:at:)`` refuses a post.
    static func checkKeepable(_ state: SyncState?) throws(PostStoreError) {
        guard let state else { return }
        for (field, text) in [("source", state.source), ("ETag", state.etag ?? "")] where text.utf8.contains(0) {
            throw PostStoreError(
                .invalidData,
                "The sync state's \(field) has a NUL character (U+0000), which a PostgreSQL store cannot keep; "
                    + "nothing was written."
            )
        }
    }
}
