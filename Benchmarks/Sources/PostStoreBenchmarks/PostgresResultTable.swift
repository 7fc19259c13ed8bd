/// Prints the PostgreSQL engine's figures: its syncs against the `psql` anchors, the rows an unchanged re-sync
/// wrote, its memory, and its queries over loopback.
struct PostgresResultTable {
    let posts: Int
    let fileMegabytes: Double
    let results: PostgresResults
    /// The baseline build's name and results, measured in the same runs (`--baseline-harness`); nil without one.
    let baseline: (name: String, results: PostgresResults)?

    func print() {
        let figure = results.figure
        let copy = ("psql \\copy, the same B-tree indexes, ANALYZE", figure(.anchorCopyWithStoreIndexes))
        let indexed = ("psql \\copy + the same indexes", results.anchorWithIndexes)
        /// The baseline's cells for a step of PostStore's (none for a `psql` anchor, which no build changes).
        func beside(_ step: PostgresResults.Step?) -> BaselineCell? {
            guard let baseline else { return nil }
            guard let step else { return .notApplicable }
            return baseline.results.lacking.contains(step)
                ? .lacking : BaselineCell(baseline.results.figures[step]?.medianSeconds)
        }
        let rows: [(ResultRow, PostgresResults.Step?)] = [
            (ResultRow("psql: \\copy into a table with its primary key", figure(.anchorCopy)), nil),
            (
                ResultRow(
                    "psql: \\copy into the store's table with its B-tree indexes (id, user, revision), then ANALYZE",
                    figure(.anchorCopyWithStoreIndexes)
                ), nil
            ),
            (ResultRow("psql: index on user id", figure(.anchorUserIndex)), nil),
            (ResultRow("psql: pg_trgm GIN index on the lowercased text", figure(.anchorSearchIndex)), nil),
            (ResultRow("psql: \\copy + both indexes", results.anchorWithIndexes), nil),
            (
                ResultRow(
                    "PostStore PostgreSQL first sync, no search index",
                    figure(.syncWithoutIndex),
                    vs: copy,
                    target: 1.1
                ), .syncWithoutIndex
            ),
            (
                ResultRow("PostStore PostgreSQL first sync, search index", figure(.sync), vs: indexed, target: 1.1),
                .sync
            ),
            (
                ResultRow(
                    "PostStore PostgreSQL re-sync, nothing changed",
                    figure(.resyncUnchanged),
                    vs: ("PostStore PostgreSQL first sync", figure(.sync)),
                    target: 0.3
                ), .resyncUnchanged
            ),
            (
                ResultRow(
                    "psql: changed re-sync in SQL (COPY to a temporary table, upsert, delete)",
                    figure(.anchorChangedResync)
                ), nil
            ),
            (
                ResultRow(
                    "PostStore PostgreSQL re-sync of the changed set, prune",
                    figure(.resyncChanged),
                    vs: ("psql changed re-sync", figure(.anchorChangedResync)),
                    target: 1.2
                ), .resyncChanged
            ),
        ]
        /// The baseline's two columns' header and alignment cells for figures in `unit`; empty without a baseline.
        func baselineHeader(_ unit: String) -> (names: String, alignment: String) {
            baseline == nil ? ("", "") : BaselineCell.header(unit: unit)
        }
        let besideIt = baseline.map { " Baseline: \($0.name), measured in the same runs." } ?? ""
        Swift.print(
            """

            PostgreSQL, the same \(posts) posts, on a local server over loopback (anchors: `psql` on the same \
            server).\(besideIt)

            | measure | median s | peak RSS MB | compared with | ratio | target | |\(baselineHeader("s").names)
            |---|---:|---:|---|---:|---:|---|\(baselineHeader("s").alignment)
            """
        )
        for (row, step) in rows {
            var row = row
            row.besideBaseline = beside(step)
            Swift.print(row.line)
        }
        let memoryShare = figure(.sync).maximumMegabytes / fileMegabytes
        Swift.print(
            """

            - Peak memory of the first sync: \(format(memoryShare, decimals: 2))× the file size (target ≤ 0.30×: \
            \(memoryShare <= 0.3 ? "met" : "**missed**")).
            - Rows of `posts` written, from `pg_stat_user_tables`: first sync \(results.rowsWrittenByFirstSync), \
            unchanged re-sync \(results.rowsWrittenByUnchangedResync) (target 0: \
            \(results.rowsWrittenByUnchangedResync == 0 ? "met" : "**missed**")).
            - The store's posts table with its indexes: \(format(results.storeMegabytes, decimals: 0)) MB.

            | query on \(Int(results.queries["posts"] ?? 0)) posts over loopback, in process (p50) | µs | target µs | |\
            \(baselineHeader("µs").names)
            |---|---:|---:|---|\(baselineHeader("µs").alignment)
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
            let besideValue =
                baseline.map { BaselineCell($0.results.queries[key]).cells(beside: value, decimals: 1) } ?? ""
            Swift.print(
                "| \(name) | \(format(value, decimals: 1)) | \(target.map { format($0, decimals: 0) } ?? "") | \(verdict) |"
                    + besideValue
            )
        }
    }
}
