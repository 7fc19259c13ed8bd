import CLimit
import Foundation

/// Prints the harness's figures as Markdown tables: each measure, what it is compared with, the ratio, the target
/// and whether it is met.
struct ResultTable {
    let posts: Int
    let runs: Int
    let fileMegabytes: Double
    /// The SQLite store after a first sync, with and without the search index.
    let storeMegabytes: (withIndex: Double, withoutIndex: Double)
    let changes: (removed: Int, edited: Int, added: Int)
    let figures: [ChildMeasure: BenchmarkRun.Figure]
    let peer: BenchmarkRun.Figure?
    let queries: [String: Double]
    let processes: [String: Double]
    /// Whole `poststore sync` processes into a new store and into an empty one.
    let commandSyncs: [BenchmarkRun.CommandSync: BenchmarkRun.Figure]

    /// The baseline build's name and figures, measured in the same runs (`--baseline-harness`); nil without one.
    let baseline: (name: String, figures: BenchmarkRun.BuildFigures)?

    func print() {
        func figure(_ measure: ChildMeasure) -> BenchmarkRun.Figure { figures[measure] ?? BenchmarkRun.Figure() }
        /// The row of a child measure, with the baseline's figure for it in a run with a baseline.
        func row(
            _ name: String,
            _ measure: ChildMeasure,
            vs comparison: (String, BenchmarkRun.Figure)? = nil,
            speedUp: Bool = false,
            target: Double? = nil
        ) -> ResultRow {
            var row = ResultRow(name, figure(measure), vs: comparison, speedUp: speedUp, target: target)
            row.besideBaseline = baseline.map { BaselineCell($0.figures.figures[measure]?.medianSeconds) }
            return row
        }
        /// The row of a whole `poststore sync`, likewise.
        func row(
            _ name: String,
            _ kind: BenchmarkRun.CommandSync,
            vs comparison: (String, BenchmarkRun.Figure),
            speedUp: Bool = false,
            target: Double? = nil
        ) -> ResultRow? {
            guard let figure = commandSyncs[kind] else { return nil }
            var row = ResultRow(name, figure, vs: comparison, speedUp: speedUp, target: target)
            row.besideBaseline = baseline.map { BaselineCell($0.figures.commandSyncs[kind]?.medianSeconds) }
            return row
        }
        let cLimit = ("C limit", figure(.cLimit))
        let cLimitIndex = ("C limit + FTS5 rebuild", figure(.cLimitWithSearchIndex))
        let first = ("PostStore first sync (index)", figure(.syncSQLite))
        var rows: [ResultRow] = [
            row("Decode + check: Foundation JSONDecoder", .decodeWithJSONDecoder),
            row(
                "Decode + check: PostStore decoder (speed-up)",
                .decodeWithPostStore,
                vs: ("JSONDecoder", figure(.decodeWithJSONDecoder)),
                speedUp: true,
                target: 4
            ),
            row("C limit: first sync, no index", .cLimit),
            row("PostStore SQLite first sync, no index", .syncSQLiteWithoutIndex, vs: cLimit, target: 1.25),
            row("C limit + FTS5 rebuild of the same index", .cLimitWithSearchIndex),
            row("PostStore SQLite first sync, search index", .syncSQLite, vs: cLimitIndex, target: 1.1),
            row("PostStore SQLite re-sync, nothing changed", .resyncSQLiteUnchanged, vs: first, target: 0.6),
            row("C limit: re-sync of the changed set, prune", .cLimitChangedResync),
            row(
                "PostStore SQLite re-sync of the changed set, no index",
                .resyncSQLiteChangedWithoutIndex,
                vs: ("C limit re-sync", figure(.cLimitChangedResync)),
                target: 1.5
            ),
            row("C limit: the same, search index kept row by row", .cLimitChangedResyncWithSearchIndex),
            row(
                "PostStore SQLite re-sync of the changed set, search index",
                .resyncSQLiteChanged,
                vs: ("C limit re-sync, index", figure(.cLimitChangedResyncWithSearchIndex)),
                target: 1.5
            ),
            row("JSON-file engine first sync", .syncJSONFile, vs: first, target: 3),
            row("In-memory engine first sync", .syncMemory, vs: first, target: 0.5),
            row("SQLite search index rebuilt (one statement)", .rebuildIndex),
            row(
                "The same, its rows counted to report progress",
                .rebuildIndexCountingRows,
                vs: ("not counted", figure(.rebuildIndex)),
                target: 1.01
            ),
        ]
        if let peer {
            var row = ResultRow("Peer: sqlite-utils insert --pk id", peer, vs: cLimit)
            row.besideBaseline = baseline.map { _ in .notApplicable }
            rows.append(row)
        }
        if commandSyncs[.newStore] != nil, let emptyStore = commandSyncs[.emptyStore] {
            rows += [
                row("`poststore sync` into an empty store (WAL, in place)", .emptyStore, vs: cLimitIndex),
                row("`poststore sync` into a new store (staged, no WAL)", .newStore, vs: cLimitIndex),
                row(
                    "New store in a staging folder (speed-up)",
                    .newStore,
                    vs: ("empty store, WAL", emptyStore),
                    speedUp: true
                ),
            ].compactMap { $0 }
        }
        if let newStore = commandSyncs[.newStore], commandSyncs[.newStoreWithProgress] != nil {
            rows += [
                row(
                    "`poststore sync` into a new store, progress drawn (`--progress`)",
                    .newStoreWithProgress,
                    vs: ("progress off", newStore),
                    target: 1.01
                )
            ].compactMap { $0 }
        }

        let date = ISO8601DateFormatter().string(from: Date()).prefix(10)
        /// The baseline's two columns' header and alignment cells for figures in `unit`; empty without a baseline.
        func baselineHeader(_ unit: String) -> (names: String, alignment: String) {
            baseline == nil ? ("", "") : BaselineCell.header(unit: unit)
        }
        let besideIt =
            baseline.map {
                " Baseline: \($0.name), measured in the same runs, each measure by both builds in turn"
                    + " (\"—\": the baseline lacks it)."
            } ?? ""
        Swift.print(
            """
            PostStore benchmarks, \(date): \(posts) posts (\(format(fileMegabytes, decimals: 1)) MB JSON file), \
            median of \(runs) run\(runs == 1 ? "" : "s"), \(Self.machine()). Changed set: \(changes.added) new, \
            \(changes.removed) removed (prune), \(changes.edited) edited.\(besideIt)

            | measure | median s | peak RSS MB | compared with | ratio | target | |\(baselineHeader("s").names)
            |---|---:|---:|---|---:|---:|---|\(baselineHeader("s").alignment)
            """
        )
        for row in rows { Swift.print(row.line) }
        let decoded = figure(.decodeWithPostStore)
        let bytes = decoded.last["bytes"] ?? 0
        let throughput = { (figure: BenchmarkRun.Figure) in
            format(bytes / 1_048_576 / figure.medianSeconds, decimals: 0)
        }
        let memoryShare = figure(.syncSQLite).maximumMegabytes / fileMegabytes
        let unchanged = figure(.resyncSQLiteUnchanged).last
        let written = (unchanged["inserted"] ?? 0) + (unchanged["updated"] ?? 0) + (unchanged["deleted"] ?? 0)
        Swift.print(
            """

            - Decoder throughput: PostStore \(throughput(decoded)) MB/s, JSONDecoder \
            \(throughput(figure(.decodeWithJSONDecoder))) MB/s.
            - Peak memory of the first sync into SQLite: \(format(memoryShare, decimals: 2))× the file size \
            (target ≤ 0.60×: \(memoryShare <= 0.6 ? "met" : "**missed**"); no index: \
            \(format(figure(.syncSQLiteWithoutIndex).maximumMegabytes / fileMegabytes, decimals: 2))×; a sync needs \
            about 60 MB whatever the file's size, so small files miss).
            - Posts written by the unchanged re-sync: \(Int(written)) (target 0).
            - SQLite store size: \(format(storeMegabytes.withIndex, decimals: 0)) MB with the search index, \
            \(format(storeMegabytes.withoutIndex, decimals: 0)) MB without.

            | query on \(Int(queries["posts"] ?? 0)) posts, in process (p50) | µs | target µs | |\
            \(baselineHeader("µs").names)
            |---|---:|---:|---|\(baselineHeader("µs").alignment)
            """
        )
        let queryRows: [(String, String, Double)] = [
            ("lookup by id", "id", 5),
            ("filter by user, 10 results", "user", 50),
            ("search a rare term, \"zyzzyva\" (\(Int(queries["rareResults"] ?? 0)) results)", "rare", 2_000),
            (
                "search a rare term of common trigrams, \"quokka\" (\(Int(queries["rareOfCommonResults"] ?? 0)) results)",
                "rareOfCommon", 2_000
            ),
            ("search a common term, \"dolor\", first 10", "common10", 150_000),
            ("search a common term, all \(Int(queries["commonResults"] ?? 0)) results", "commonAll", .infinity),
        ]
        for (name, key, target) in queryRows {
            let value = queries[key] ?? .nan
            let goal = target.isFinite ? format(target, decimals: 0) : ""
            let verdict = target.isFinite ? (value <= target ? "met" : "**missed**") : ""
            let beside = baseline.map { BaselineCell($0.figures.queries[key]).cells(beside: value, decimals: 1) } ?? ""
            Swift.print("| \(name) | \(format(value, decimals: 1)) | \(goal) | \(verdict) |\(beside)")
        }
        if !processes.isEmpty {
            Swift.print(
                """

                | whole `poststore` process (median of 21) | ms | target ms | |\(baselineHeader("ms").names)
                |---|---:|---:|---|\(baselineHeader("ms").alignment)
                """
            )
            for (name, key, target) in [
                ("`poststore query --user N --limit 10`", "query", 60.0),
                ("`poststore sync` answered 304 Not Modified", "notModified", 50.0),
            ] {
                let value = processes[key] ?? .nan
                let beside =
                    baseline.map { BaselineCell($0.figures.processes[key]).cells(beside: value, decimals: 1) } ?? ""
                Swift.print(
                    "| \(name) | \(format(value, decimals: 1)) | \(format(target, decimals: 0)) | "
                        + "\(value <= target ? "met" : "**missed**") |\(beside)"
                )
            }
        }
    }

    static func machine() -> String {
        let gibibytes = Double(ProcessInfo.processInfo.physicalMemory) / Double(1 << 30)
        return "\(ProcessInfo.processInfo.activeProcessorCount) cores, \(format(gibibytes, decimals: 1)) GiB, "
            + "SQLite \(String(cString: climit_sqlite_version()))"
    }
}
