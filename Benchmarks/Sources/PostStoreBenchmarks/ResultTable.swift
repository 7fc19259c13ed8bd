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

    func print() {
        func figure(_ measure: ChildMeasure) -> BenchmarkRun.Figure { figures[measure] ?? BenchmarkRun.Figure() }
        let cLimit = ("C limit", figure(.cLimit))
        let cLimitIndex = ("C limit + FTS5 rebuild", figure(.cLimitWithSearchIndex))
        let first = ("PostStore first sync (index)", figure(.syncSQLite))
        var rows: [ResultRow] = [
            ResultRow("Decode + check: Foundation JSONDecoder", figure(.decodeWithJSONDecoder)),
            ResultRow(
                "Decode + check: PostStore decoder (speed-up)",
                figure(.decodeWithPostStore),
                vs: ("JSONDecoder", figure(.decodeWithJSONDecoder)),
                speedUp: true,
                target: 4
            ),
            ResultRow("C limit: first sync, no index", figure(.cLimit)),
            ResultRow(
                "PostStore SQLite first sync, no index",
                figure(.syncSQLiteWithoutIndex),
                vs: cLimit,
                target: 1.25
            ),
            ResultRow("C limit + FTS5 rebuild of the same index", figure(.cLimitWithSearchIndex)),
            ResultRow("PostStore SQLite first sync, search index", figure(.syncSQLite), vs: cLimitIndex, target: 1.1),
            ResultRow(
                "PostStore SQLite re-sync, nothing changed",
                figure(.resyncSQLiteUnchanged),
                vs: first,
                target: 0.6
            ),
            ResultRow("C limit: re-sync of the changed set, prune", figure(.cLimitChangedResync)),
            ResultRow(
                "PostStore SQLite re-sync of the changed set, no index",
                figure(.resyncSQLiteChangedWithoutIndex),
                vs: ("C limit re-sync", figure(.cLimitChangedResync)),
                target: 1.5
            ),
            ResultRow("C limit: the same, search index kept row by row", figure(.cLimitChangedResyncWithSearchIndex)),
            ResultRow(
                "PostStore SQLite re-sync of the changed set, search index",
                figure(.resyncSQLiteChanged),
                vs: ("C limit re-sync, index", figure(.cLimitChangedResyncWithSearchIndex)),
                target: 1.5
            ),
            ResultRow("JSON-file engine first sync", figure(.syncJSONFile), vs: first, target: 3),
            ResultRow("In-memory engine first sync", figure(.syncMemory), vs: first, target: 0.5),
            ResultRow("SQLite search index rebuilt (one statement)", figure(.rebuildIndex)),
            ResultRow(
                "The same, its rows counted to report progress",
                figure(.rebuildIndexCountingRows),
                vs: ("not counted", figure(.rebuildIndex)),
                target: 1.01
            ),
        ]
        if let peer { rows.append(ResultRow("Peer: sqlite-utils insert --pk id", peer, vs: cLimit)) }
        if let newStore = commandSyncs[.newStore], let emptyStore = commandSyncs[.emptyStore] {
            rows += [
                ResultRow("`poststore sync` into an empty store (WAL, in place)", emptyStore, vs: cLimitIndex),
                ResultRow(
                    "`poststore sync` into a new store (staged, no WAL)",
                    newStore,
                    vs: cLimitIndex
                ),
                ResultRow(
                    "New store in a staging folder (speed-up)",
                    newStore,
                    vs: ("empty store, WAL", emptyStore),
                    speedUp: true
                ),
            ]
        }
        if let newStore = commandSyncs[.newStore], let withProgress = commandSyncs[.newStoreWithProgress] {
            rows.append(
                ResultRow(
                    "`poststore sync` into a new store, progress drawn (`--progress`)",
                    withProgress,
                    vs: ("progress off", newStore),
                    target: 1.01
                )
            )
        }

        let date = ISO8601DateFormatter().string(from: Date()).prefix(10)
        Swift.print(
            """
            PostStore benchmarks, \(date): \(posts) posts (\(format(fileMegabytes, decimals: 1)) MB JSON file), \
            median of \(runs) run\(runs == 1 ? "" : "s"), \(Self.machine()). Changed set: \(changes.added) new, \
            \(changes.removed) removed (prune), \(changes.edited) edited.

            | measure | median s | peak RSS MB | compared with | ratio | target | |
            |---|---:|---:|---|---:|---:|---|
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

            | query on \(Int(queries["posts"] ?? 0)) posts, in process (p50) | µs | target µs | |
            |---|---:|---:|---|
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
            Swift.print("| \(name) | \(format(value, decimals: 1)) | \(goal) | \(verdict) |")
        }
        if !processes.isEmpty {
            Swift.print(
                """

                | whole `poststore` process (median of 21) | ms | target ms | |
                |---|---:|---:|---|
                """
            )
            for (name, key, target) in [
                ("`poststore query --user N --limit 10`", "query", 60.0),
                ("`poststore sync` answered 304 Not Modified", "notModified", 50.0),
            ] {
                let value = processes[key] ?? .nan
                Swift.print(
                    "| \(name) | \(format(value, decimals: 1)) | \(format(target, decimals: 0)) | "
                        + "\(value <= target ? "met" : "**missed**") |"
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
