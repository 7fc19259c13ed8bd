import Foundation

/// The PostgreSQL figures of a run, gathered over its runs.
struct PostgresResults {
    /// One step of a run: PostStore's engine (each in a child process) or `psql` doing the same work by hand.
    enum Step: CaseIterable {
        case anchorCopy, anchorCopyWithStoreIndexes, anchorUserIndex, anchorSearchIndex, anchorChangedResync
        case syncWithoutIndex, sync, resyncUnchanged, resyncChanged
        /// The queries on the indexed store (``PostgresResults/queryRuns``), a step so that a baseline can lack it.
        case queries
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
    /// The steps a baseline lacks: the table shows "—".
    var lacking: Set<Step> = []
    /// Rows of `posts` inserted, updated and deleted, as `pg_stat_user_tables` counts them (this build's alone).
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
    ///
    /// - Parameters:
    ///   - results: Each build's results, in ``builds``' order; the anchors' go into this build's.
    ///   - order: The order in which the builds take their turn at each of PostStore's steps (``order(run:)``).
    func runPostgres(
        server: String,
        psql: Psql,
        changes: (removed: Int, edited: Int, added: Int),
        into results: inout [PostgresResults],
        order: [Int]
    ) throws {
        let prefix = "poststore_benchmarks_\(getpid())"
        let (anchor, withoutIndex, indexed) = (prefix + "_anchor", prefix + "_noindex", prefix + "_index")
        let storeLikeAnchor = prefix + "_anchor_btrees"
        // The baseline's stores are schemas of their own: it never opens one that a newer schema wrote.
        let baselineSchemas = (withoutIndex: prefix + "_baseline_noindex", indexed: prefix + "_baseline_index")
        func storeSchemas(of index: Int) -> (withoutIndex: String, indexed: String) {
            builds[index].isBaseline ? baselineSchemas : (withoutIndex, indexed)
        }
        let changeArgument = "\(changes.removed),\(changes.edited),\(changes.added)"
        func store(_ schema: String) -> String { server + "?schema=" + schema }
        func time(_ step: PostgresResults.Step, _ outcome: ChildProcess.Outcome) {
            results[0].figures[step, default: BenchmarkRun.Figure()].seconds.append(outcome.seconds)
            results[0].figures[step, default: BenchmarkRun.Figure()].peakMegabytes.append(outcome.peakMegabytes)
        }
        /// Runs PostStore's `step` as the child measure `childMeasure` with each build in turn, on the schema `schema`
        /// picks; a baseline that lacks it, or lacks the step that made its store (`after`), shows "—".
        func measure(
            _ step: PostgresResults.Step,
            _ childMeasure: ChildMeasure,
            after earlier: PostgresResults.Step? = nil,
            schema: ((withoutIndex: String, indexed: String)) -> String
        ) throws {
            for index in order where !results[index].lacking.contains(step) {
                if let earlier, results[index].lacking.contains(earlier) {
                    results[index].lacking.insert(step)
                    continue
                }
                do {
                    let result = try child(
                        childMeasure,
                        store: store(schema(storeSchemas(of: index))),
                        changes: changeArgument,
                        build: builds[index]
                    )
                    if step == .queries {
                        results[index].queryRuns.append(result.figures)
                    } else {
                        record(&results[index].figures[step, default: Figure()], result)
                    }
                } catch is MeasureLacking {
                    results[index].lacking.insert(step)
                }
            }
        }
        let schemas =
            [anchor, storeLikeAnchor, withoutIndex, indexed]
            + (builds.count > 1 ? [baselineSchemas.withoutIndex, baselineSchemas.indexed] : [])
        let existing = try psql.value(
            "SELECT count(*) FROM pg_namespace WHERE nspname IN (\(schemas.map { "'\($0)'" }.joined(separator: ",")))"
        )
        try expect(existing == "0", "the server already has a schema named \(prefix)_…; nothing was touched")
        defer { _ = try? psql.run(schemas.map { "DROP SCHEMA IF EXISTS \($0) CASCADE" }) }

        try measure(.syncWithoutIndex, .syncPostgresWithoutIndex, schema: \.withoutIndex)
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
        results[0].anchorWithIndexes.seconds.append(copy.seconds + userIndex.seconds + searchIndex.seconds)
        results[0].anchorWithIndexes.peakMegabytes.append(copy.peakMegabytes)

        try measure(.sync, .syncPostgres, schema: \.indexed)
        results[0].rowsWrittenByFirstSync = try psql.rowsWritten(schema: indexed, table: "posts")
        // A check that the statistics are read right, so that the unchanged re-sync's 0 means something.
        try expect(
            results[0].rowsWrittenByFirstSync == options.posts,
            "pg_stat_user_tables counts \(results[0].rowsWrittenByFirstSync) rows written by the first sync"
        )
        let storeBytes = try psql.value("SELECT pg_total_relation_size('\(indexed).posts')")
        results[0].storeMegabytes = (Double(storeBytes) ?? 0) / 1_048_576
        // A store is re-synced and queried long after its first sync, once autovacuum has set the hint bits and
        // the visibility of its rows; timed seconds after the load, a re-sync or a lookup would pay for that work,
        // or not, as autovacuum's naptime falls. The tables are settled the same way, untimed, before any re-sync
        // or query.
        let settled =
            [anchor]
            + builds.indices.filter { !results[$0].lacking.contains(.sync) }.map { storeSchemas(of: $0).indexed }
        try psql.run(settled.map { "VACUUM ANALYZE \($0).posts" })
        try measure(.resyncUnchanged, .resyncPostgresUnchanged, after: .sync, schema: \.indexed)
        results[0].rowsWrittenByUnchangedResync =
            try psql.rowsWritten(schema: indexed, table: "posts") - results[0].rowsWrittenByFirstSync
        try measure(.queries, .queriesPostgres, after: .sync, schema: \.indexed)

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
        try measure(.resyncChanged, .resyncPostgresChanged, after: .sync, schema: \.indexed)
    }
}
