import Foundation

/// The PostgreSQL figures of a run, gathered over its runs.
struct PostgresResults {
    /// One step of a run: PostStore's engine (each in a child process) or `psql` doing the same work by hand.
    enum Step: CaseIterable {
        case anchorCopy, anchorCopyWithStoreIndexes, anchorUserIndex, anchorSearchIndex, anchorChangedResync
        case syncWithoutIndex, sync, resyncUnchanged, resyncChanged
    }

    var figures: [Step: BenchmarkRun.Figure] = [:]
    /// The anchor's first sync with both indexes: its copy and index builds, added up run by run.
    var anchorWithIndexes = BenchmarkRun.Figure()
    /// Query timings on the indexed store (``QueryMeasures``), one set per run.
    var queryRuns: [[String: Double]] = []
    /// The median of each query timing over the runs.
    var queries: [String: Double] {
        var medians: [String: Double] = [:]
        for key in Set(queryRuns.flatMap(\.keys)) {
            let values = queryRuns.compactMap { $0[key] }.sorted()
            medians[key] = values[values.count / 2]
        }
        return medians
    }
    /// Rows of `posts` inserted, updated and deleted, as `pg_stat_user_tables` counts them.
    var rowsWrittenByFirstSync = 0
    var rowsWrittenByUnchangedResync = 0
    /// The indexed store's posts table with its indexes, in MB.
    var storeMegabytes = 0.0

    func figure(_ step: Step) -> BenchmarkRun.Figure { figures[step] ?? BenchmarkRun.Figure() }
}

extension BenchmarkRun {
    /// Runs the PostgreSQL steps once, interleaved: a first sync without and with the search index, an unchanged
    /// re-sync, a changed re-sync with prune; beside them the anchor, `psql` on the same server: `\copy` of the same
    /// rows into a table with its primary key, the store's two indexes built after, and the changed re-sync in pure
    /// SQL (COPY into a temporary table, one upsert, one delete). The schemas are this process's own, dropped after.
    func runPostgres(
        server: String,
        psql: Psql,
        changes: (removed: Int, edited: Int, added: Int),
        into results: inout PostgresResults
    ) throws {
        let prefix = "poststore_benchmarks_\(getpid())"
        let (anchor, withoutIndex, indexed) = (prefix + "_anchor", prefix + "_noindex", prefix + "_index")
        let storeLikeAnchor = prefix + "_anchor_btrees"
        let changeArgument = "\(changes.removed),\(changes.edited),\(changes.added)"
        func store(_ schema: String) -> String { server + "?schema=" + schema }
        func time(_ step: PostgresResults.Step, _ outcome: ChildProcess.Outcome) {
            results.figures[step, default: BenchmarkRun.Figure()].seconds.append(outcome.seconds)
            results.figures[step, default: BenchmarkRun.Figure()].peakMegabytes.append(outcome.peakMegabytes)
        }
        let schemas = [anchor, storeLikeAnchor, withoutIndex, indexed]
        let existing = try psql.value(
            "SELECT count(*) FROM pg_namespace WHERE nspname IN (\(schemas.map { "'\($0)'" }.joined(separator: ",")))"
        )
        try expect(existing == "0", "the server already has a schema named \(prefix)_…; nothing was touched")
        defer { _ = try? psql.run(schemas.map { "DROP SCHEMA IF EXISTS \($0) CASCADE" }) }

        try record(
            &results.figures[.syncWithoutIndex, default: Figure()],
            child(.syncPostgresWithoutIndex, store: store(withoutIndex), changes: changeArgument)
        )
        // pg_trgm is there now (the store's migrations add it); the anchor's index names its operator class.
        let trigramSchema = try psql.value(
            """
            SELECT quote_ident(n.nspname) FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
            WHERE e.extname = 'pg_trgm'
            """
        )
        try psql.run([
            "CREATE SCHEMA \(anchor)",
            """
            CREATE TABLE \(anchor).posts (
                id bigint PRIMARY KEY, user_id bigint NOT NULL, title text NOT NULL, body text NOT NULL,
                search_text text NOT NULL)
            """,
        ])
        let copy = try psql.run(["\\copy \(anchor).posts FROM '\(folder)/posts.csv' CSV"])
        let userIndex = try psql.run(["CREATE INDEX ON \(anchor).posts (user_id, id)"])
        let searchIndex = try psql.run(
            ["CREATE INDEX ON \(anchor).posts USING gin (search_text \(trigramSchema).gin_trgm_ops)"]
        )
        // The first sync without the search index does this work: the store's table, its B-tree indexes kept up
        // during the copy, and statistics after (PostgreSQL's advice for populating a table).
        try psql.run([
            "CREATE SCHEMA \(storeLikeAnchor)",
            """
            CREATE TABLE \(storeLikeAnchor).posts (
                id bigint PRIMARY KEY, user_id bigint NOT NULL, title text COLLATE "C" NOT NULL,
                body text COLLATE "C" NOT NULL, search_text text NOT NULL, revision bigint NOT NULL DEFAULT 0)
            """,
            "CREATE INDEX ON \(storeLikeAnchor).posts (user_id, id)",
            "CREATE INDEX ON \(storeLikeAnchor).posts (revision)",
        ])
        let storeLikeCopy = try psql.run([
            "\\copy \(storeLikeAnchor).posts (id, user_id, title, body, search_text) FROM '\(folder)/posts.csv' CSV",
            "ANALYZE \(storeLikeAnchor).posts",
        ])
        time(.anchorCopyWithStoreIndexes, storeLikeCopy)
        time(.anchorCopy, copy)
        time(.anchorUserIndex, userIndex)
        time(.anchorSearchIndex, searchIndex)
        results.anchorWithIndexes.seconds.append(copy.seconds + userIndex.seconds + searchIndex.seconds)
        results.anchorWithIndexes.peakMegabytes.append(copy.peakMegabytes)

        try record(
            &results.figures[.sync, default: Figure()],
            child(.syncPostgres, store: store(indexed), changes: changeArgument)
        )
        results.rowsWrittenByFirstSync = try psql.rowsWritten(schema: indexed, table: "posts")
        // A check that the statistics are read right, so that the unchanged re-sync's 0 means something.
        try expect(
            results.rowsWrittenByFirstSync == options.posts,
            "pg_stat_user_tables counts \(results.rowsWrittenByFirstSync) rows written by the first sync"
        )
        let storeBytes = try psql.value("SELECT pg_total_relation_size('\(indexed).posts')")
        results.storeMegabytes = (Double(storeBytes) ?? 0) / 1_048_576
        // A store is re-synced and queried long after its first sync, once autovacuum has set the hint bits and
        // the visibility of its rows; timed seconds after the load, a re-sync or a lookup would pay for that work,
        // or not, as autovacuum's naptime falls. Both tables are settled the same way, untimed, before any re-sync
        // or query.
        try psql.run(["VACUUM ANALYZE \(anchor).posts", "VACUUM ANALYZE \(indexed).posts"])
        try record(
            &results.figures[.resyncUnchanged, default: Figure()],
            child(.resyncPostgresUnchanged, store: store(indexed), changes: changeArgument)
        )
        results.rowsWrittenByUnchangedResync =
            try psql.rowsWritten(schema: indexed, table: "posts") - results.rowsWrittenByFirstSync
        results.queryRuns.append(try child(.queriesPostgres, store: store(indexed), changes: changeArgument).figures)

        time(
            .anchorChangedResync,
            try psql.run(
                [
                    "CREATE TEMPORARY TABLE incoming (LIKE \(anchor).posts) ON COMMIT DROP",
                    "\\copy incoming FROM '\(folder)/posts-changed.csv' CSV",
                    "ANALYZE incoming",
                    """
                    INSERT INTO \(anchor).posts AS p SELECT * FROM incoming ON CONFLICT (id) DO UPDATE
                    SET user_id = excluded.user_id, title = excluded.title, body = excluded.body,
                        search_text = excluded.search_text
                    WHERE (p.user_id, p.title, p.body) IS DISTINCT FROM (excluded.user_id, excluded.title, excluded.body)
                    """,
                    "DELETE FROM \(anchor).posts p WHERE NOT EXISTS (SELECT 1 FROM incoming i WHERE i.id = p.id)",
                ],
                singleTransaction: true
            )
        )
        let anchorCount = try psql.value("SELECT count(*) FROM \(anchor).posts")
        try expect(
            anchorCount == String(options.posts - changes.removed + changes.added),
            "the anchor's changed re-sync left \(anchorCount) posts"
        )
        try record(
            &results.figures[.resyncChanged, default: Figure()],
            child(.resyncPostgresChanged, store: store(indexed), changes: changeArgument)
        )
    }
}
