/// Prints the PostgreSQL engine's figures: its syncs against the `psql` anchors, the rows an unchanged re-sync
/// wrote, its memory, and its queries over loopback.
struct PostgresResultTable {
    let posts: Int
    let fileMegabytes: Double
    let results: PostgresResults

    func print() {
        let figure = results.figure
        let copy = ("psql \\copy, the same B-tree indexes, ANALYZE", figure(.anchorCopyWithStoreIndexes))
        let indexed = ("psql \\copy + the same indexes", results.anchorWithIndexes)
        let rows = [
            ResultRow("psql: \\copy into a table with its primary key", figure(.anchorCopy)),
            ResultRow(
                "psql: \\copy into the store's table with its B-tree indexes (id, user, revision), then ANALYZE",
                figure(.anchorCopyWithStoreIndexes)
            ),
            ResultRow("psql: index on user id", figure(.anchorUserIndex)),
            ResultRow("psql: pg_trgm GIN index on the lowercased text", figure(.anchorSearchIndex)),
            ResultRow("psql: \\copy + both indexes", results.anchorWithIndexes),
            ResultRow(
                "PostStore PostgreSQL first sync, no search index",
                figure(.syncWithoutIndex),
                vs: copy,
                target: 1.1
            ),
            ResultRow("PostStore PostgreSQL first sync, search index", figure(.sync), vs: indexed, target: 1.1),
            ResultRow(
                "PostStore PostgreSQL re-sync, nothing changed",
                figure(.resyncUnchanged),
                vs: ("PostStore PostgreSQL first sync", figure(.sync)),
                target: 0.3
            ),
            ResultRow(
                "psql: changed re-sync in SQL (COPY to a temporary table, upsert, delete)",
                figure(.anchorChangedResync)
            ),
            ResultRow(
                "PostStore PostgreSQL re-sync of the changed set, prune",
                figure(.resyncChanged),
                vs: ("psql changed re-sync", figure(.anchorChangedResync)),
                target: 1.2
            ),
        ]
        Swift.print(
            """

            PostgreSQL, the same \(posts) posts, on a local server over loopback (anchors: `psql` on the same server).

            | measure | median s | peak RSS MB | compared with | ratio | target | |
            |---|---:|---:|---|---:|---:|---|
            """
        )
        for row in rows { Swift.print(row.line) }
        let memoryShare = figure(.sync).maximumMegabytes / fileMegabytes
        Swift.print(
            """

            - Peak memory of the first sync: \(format(memoryShare, decimals: 2))× the file size (target ≤ 0.30×: \
            \(memoryShare <= 0.3 ? "met" : "**missed**")).
            - Rows of `posts` written, from `pg_stat_user_tables`: first sync \(results.rowsWrittenByFirstSync), \
            unchanged re-sync \(results.rowsWrittenByUnchangedResync) (target 0: \
            \(results.rowsWrittenByUnchangedResync == 0 ? "met" : "**missed**")).
            - The store's posts table with its indexes: \(format(results.storeMegabytes, decimals: 0)) MB.

            | query on \(Int(results.queries["posts"] ?? 0)) posts over loopback, in process (p50) | µs | target µs | |
            |---|---:|---:|---|
            """
        )
        // Each read both ways a pool can run: connections kept open (what `poststore serve` asks for, and the
        // targets' case), and postgres-nio's default, which starts a keep-alive and an idle timer at each release.
        let queryRows: [(String, String, Double?)] = [
            ("lookup by id, connections kept open", "keptId", 120),
            (
                "the same lookup through postgres-nio alone (a prepared statement), connections kept open",
                "aloneKeptId", nil
            ),
            ("lookup by id, postgres-nio's default pool", "id", nil),
            ("the same lookup through postgres-nio alone, its default pool", "aloneId", nil),
            ("filter by user, 10 results, connections kept open", "keptUser", 150),
            ("the same filter through postgres-nio alone, connections kept open", "aloneKeptUser", nil),
            ("filter by user, postgres-nio's default pool", "user", nil),
            ("the same filter through postgres-nio alone, its default pool", "aloneUser", nil),
            ("search a rare term, \"zyzzyva\" (\(Int(results.queries["rareResults"] ?? 0)) results)", "rare", 5_000),
            (
                "search a rare term of common trigrams, \"quokka\" "
                    + "(\(Int(results.queries["rareOfCommonResults"] ?? 0)) results)",
                "rareOfCommon", nil
            ),
            ("search a common term, \"dolor\", first 10", "common10", nil),
        ]
        for (name, key, target) in queryRows {
            let value = results.queries[key] ?? .nan
            let verdict = target.map { value <= $0 ? "met" : "**missed**" } ?? ""
            Swift.print(
                "| \(name) | \(format(value, decimals: 1)) | \(target.map { format($0, decimals: 0) } ?? "") | \(verdict) |"
            )
        }
    }
}
