import Foundation
import PostStore
import PostStoreJSONFile
import PostStoreSQLite

/// One run of the harness: generates the data, runs every measure `runs` times interleaved, and prints the table.
struct BenchmarkRun {
    let options: BenchmarkOptions
    let folder: String
    /// This build, then the baseline's when there is one (`--baseline-harness`): results are kept in this order.
    let builds: [BenchmarkBuild]

    init(options: BenchmarkOptions) {
        self.options = options
        let folder = FileManager.default.temporaryDirectory.path + "/poststore-benchmarks-\(getpid())"
        self.folder = folder
        builds =
            [
                BenchmarkBuild(
                    harness: Bundle.main.executablePath ?? CommandLine.arguments[0],
                    poststore: options.poststore,
                    storeFolder: folder,
                    isBaseline: false
                )
            ]
            + (options.baselineHarness.map { harness in
                [
                    BenchmarkBuild(
                        harness: harness,
                        poststore: URL(fileURLWithPath: harness).deletingLastPathComponent()
                            .appendingPathComponent("poststore").path,
                        storeFolder: folder + "/baseline",
                        isBaseline: true
                    )
                ]
            } ?? [])
    }

    /// A child measure's medians over the runs.
    struct Figure {
        var seconds: [Double] = []
        var peakMegabytes: [Double] = []
        var last: [String: Double] = [:]

        var medianSeconds: Double { seconds.sorted()[seconds.count / 2] }
        var maximumMegabytes: Double { peakMegabytes.max() ?? 0 }
    }

    /// What one build measured over the runs.
    struct BuildFigures {
        var figures: [ChildMeasure: Figure] = [:]
        /// Whole `poststore sync` processes into a new store and into an empty one.
        var commandSyncs: [CommandSync: Figure] = [:]
        /// The in-process query timings (``QueryMeasures``), in microseconds.
        var queries: [String: Double] = [:]
        /// Whole `poststore` processes, in milliseconds.
        var processes: [String: Double] = [:]
        /// What a baseline lacks (child measures and command syncs, by their raw values): the table shows "—".
        var lacking: Set<String> = []
    }

    /// The order in which the builds take their turn at each measure in run `run` (1-based), as indices into
    /// ``builds``: this build first in odd runs, the baseline first in even ones, so that neither always runs right
    /// after the other's work.
    func order(run: Int) -> [Int] {
        run.isMultiple(of: 2) ? Array(builds.indices.reversed()) : Array(builds.indices)
    }

    func run() async throws {
        try? FileManager.default.removeItem(atPath: folder)
        try FileManager.default.createDirectory(atPath: folder + "/work", withIntermediateDirectories: true)
        for build in builds where build.storeFolder != folder {
            try FileManager.default.createDirectory(atPath: build.storeFolder, withIntermediateDirectories: true)
        }
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let generator = PostFileGenerator()
        let start = ContinuousClock.now
        try generator.writeFile(count: options.posts, to: folder + "/posts.json")
        let changes = try generator.writeChangedFile(count: options.posts, to: folder + "/posts-changed.json")
        let fileBytes = try FileManager.default.attributesOfItem(atPath: folder + "/posts.json")[.size] as! Int
        let fileMegabytes = Double(fileBytes) / 1_048_576
        FileHandle.standardError.write(
            Data("generated \(options.posts) posts in \(format((ContinuousClock.now - start).seconds)) s\n".utf8)
        )
        let changeArgument = "\(changes.removed),\(changes.edited),\(changes.added)"
        let psql = options.postgres.map { Psql(url: $0, outputPath: folder + "/psql.out") }
        if psql != nil { try child(.postgresAnchorFiles, store: folder + "/unused", changes: changeArgument) }
        var postgres = builds.map { _ in PostgresResults() }
        let baselineName = options.baselineName
        if options.postgresOnly, let server = options.postgres, let psql {
            for run in 1...options.runs {
                FileHandle.standardError.write(Data("run \(run) of \(options.runs)\n".utf8))
                try runPostgres(server: server, psql: psql, changes: changes, into: &postgres, order: order(run: run))
            }
            PostgresResultTable(
                posts: options.posts,
                fileMegabytes: fileMegabytes,
                results: postgres[0],
                baseline: postgres.count > 1 ? (baselineName, postgres[1]) : nil
            ).print()
            return
        }

        // Stores the re-sync measures start from, made once by each build.
        var results = builds.map { _ in BuildFigures() }
        for (index, build) in builds.enumerated() {
            for (measure, name) in [
                (ChildMeasure.syncSQLite, "index.sqlite"), (.syncSQLiteWithoutIndex, "noindex.sqlite"),
                (.cLimit, "c.sqlite"), (.cLimitWithSearchIndex, "c-index.sqlite"),
            ] {
                do {
                    try child(measure, store: build.storeFolder + "/" + name, changes: changeArgument, build: build)
                } catch is MeasureLacking {
                    results[index].lacking.insert(measure.rawValue)
                }
            }
        }

        let measured: [(ChildMeasure, startingFrom: String?)] = [
            (.decodeWithJSONDecoder, nil), (.decodeWithPostStore, nil),
            (.cLimit, nil), (.syncSQLiteWithoutIndex, nil),
            (.cLimitWithSearchIndex, nil), (.syncSQLite, nil),
            (.resyncSQLiteUnchanged, "index.sqlite"),
            (.cLimitChangedResync, "c.sqlite"), (.resyncSQLiteChangedWithoutIndex, "noindex.sqlite"),
            (.cLimitChangedResyncWithSearchIndex, "c-index.sqlite"), (.resyncSQLiteChanged, "index.sqlite"),
            (.syncJSONFile, nil), (.syncMemory, nil),
            (.rebuildIndex, "index.sqlite"), (.rebuildIndexCountingRows, "index.sqlite"),
        ]
        var peer = Figure()
        let hasPeer = ChildProcess.isInstalled("sqlite-utils")
        let hasPostStore = builds[0].hasPostStore
        for run in 1...options.runs {
            FileHandle.standardError.write(Data("run \(run) of \(options.runs)\n".utf8))
            let order = order(run: run)
            if hasPostStore {
                for kind in CommandSync.allCases {
                    for index in order where !results[index].lacking.contains(kind.rawValue) {
                        let build = builds[index]
                        let store = folder + "/work/" + kind.rawValue + ".sqlite"
                        removeStore(store)
                        defer { removeStore(store) }
                        do {
                            let outcome = try await commandSync(kind, store: store, build: build)
                            results[index].commandSyncs[kind, default: Figure()].seconds.append(outcome.seconds)
                            results[index].commandSyncs[kind, default: Figure()].peakMegabytes.append(
                                outcome.peakMegabytes
                            )
                        } catch is MeasureLacking {
                            results[index].lacking.insert(kind.rawValue)
                        }
                    }
                }
            }
            for (measure, startingFrom) in measured {
                for index in order where !results[index].lacking.contains(measure.rawValue) {
                    let build = builds[index]
                    let store = folder + "/work/" + measure.rawValue + (measure == .syncJSONFile ? ".json" : ".sqlite")
                    removeStore(store)
                    defer { removeStore(store) }
                    do {
                        if let startingFrom {
                            let origin = build.storeFolder + "/" + startingFrom
                            // A baseline that lacks the first sync making this store lacks the measure too.
                            if build.isBaseline, !FileManager.default.fileExists(atPath: origin) {
                                throw MeasureLacking()
                            }
                            if measure == .resyncSQLiteUnchanged {
                                try record(
                                    &results[index].figures[measure, default: Figure()],
                                    child(measure, store: origin, changes: changeArgument, build: build)
                                )
                                continue
                            }
                            try FileManager.default.copyItem(atPath: origin, toPath: store)
                        }
                        try record(
                            &results[index].figures[measure, default: Figure()],
                            child(measure, store: store, changes: changeArgument, build: build)
                        )
                    } catch is MeasureLacking {
                        results[index].lacking.insert(measure.rawValue)
                    }
                }
            }
            if hasPeer {
                let store = folder + "/work/sqlite-utils.db"
                removeStore(store)
                defer { removeStore(store) }
                let outcome = try ChildProcess.run(
                    ["sqlite-utils", "insert", store, "posts", folder + "/posts.json", "--pk", "id"]
                )
                try expect(outcome.status == 0, "sqlite-utils failed")
                peer.seconds.append(outcome.seconds)
                peer.peakMegabytes.append(outcome.peakMegabytes)
            }
            if let server = options.postgres, let psql {
                try runPostgres(server: server, psql: psql, changes: changes, into: &postgres, order: order)
            }
        }
        let sizes = ["index.sqlite", "noindex.sqlite"].map { name in
            Double((try? FileManager.default.attributesOfItem(atPath: folder + "/" + name)[.size] as? Int) ?? 0)
                / 1_048_576
        }
        for (index, build) in builds.enumerated() {
            do {
                let result = try child(
                    .queries,
                    store: build.storeFolder + "/index.sqlite",
                    changes: changeArgument,
                    build: build
                )
                results[index].queries = result.figures
            } catch is MeasureLacking {
                results[index].lacking.insert(ChildMeasure.queries.rawValue)
            }
        }
        let processes = try measureProcesses()
        for index in builds.indices { results[index].processes = processes[index] }

        ResultTable(
            posts: options.posts,
            runs: options.runs,
            fileMegabytes: fileMegabytes,
            storeMegabytes: (withIndex: sizes[0], withoutIndex: sizes[1]),
            changes: changes,
            figures: results[0].figures,
            peer: hasPeer ? peer : nil,
            queries: results[0].queries,
            processes: results[0].processes,
            commandSyncs: results[0].commandSyncs,
            baseline: results.count > 1 ? (baselineName, results[1]) : nil
        ).print()
        if options.postgres != nil {
            PostgresResultTable(
                posts: options.posts,
                fileMegabytes: fileMegabytes,
                results: postgres[0],
                baseline: postgres.count > 1 ? (baselineName, postgres[1]) : nil
            ).print()
        }
    }

    /// The two ways a `poststore sync` of `posts.json` can fill an empty SQLite store.
    enum CommandSync: String, CaseIterable {
        /// The store does not exist: `sync` builds it in a staging folder without WAL, then publishes it.
        case newStore = "command-new-store"
        /// An empty store exists (made beforehand, in WAL mode): `sync` writes into it in place.
        case emptyStore = "command-empty-store"
        /// As ``newStore``, drawing its progress (`--progress`, into a pipe: the same work as on a terminal).
        case newStoreWithProgress = "command-new-store-progress"
    }

    /// Runs `build`'s `poststore sync` as a user would (a whole process) and checks that the store holds every post.
    ///
    /// - Throws: ``MeasureLacking`` when a baseline has no `poststore`, or one without such a command or option (a
    ///   usage error), or one that refuses the empty store this build made for it.
    private func commandSync(
        _ kind: CommandSync,
        store: String,
        build: BenchmarkBuild
    ) async throws -> ChildProcess.Outcome {
        if build.isBaseline, !build.hasPostStore { throw MeasureLacking() }
        var isForeignStore = false
        if kind == .emptyStore {
            do {
                try child(.createSQLiteStore, store: store, changes: "0,0,0", build: build)
            } catch is MeasureLacking {
                // A baseline from before that measure: this build's library makes the store, which that baseline's
                // `poststore` refuses if the schema has moved on since.
                _ = try SQLitePostStore(path: store)
                isForeignStore = true
            }
        }
        let outcome = try ChildProcess.run(
            [build.poststore, "sync", "--from", folder + "/posts.json", "--store", store, "--quiet"]
                + (kind == .newStoreWithProgress ? ["--progress"] : ["--no-progress"])
        )
        // 64 is argument-parser's usage error: a `poststore` built before `--progress` existed.
        if build.isBaseline, outcome.status == 64 || (isForeignStore && outcome.status != 0) {
            throw MeasureLacking()
        }
        try expect(
            outcome.status == 0,
            "\(build.poststore) sync (\(kind.rawValue)) failed with status \(outcome.status)"
        )
        let count = try await SQLitePostStore(path: store, mode: .openExisting).count()
        try expect(count == options.posts, "\(build.poststore) sync (\(kind.rawValue)) stored \(count) posts")
        return outcome
    }

    func record(_ figure: inout Figure, _ result: (figures: [String: Double], outcome: ChildProcess.Outcome)) {
        figure.seconds.append(result.figures["seconds"] ?? .nan)
        figure.peakMegabytes.append(result.outcome.peakMegabytes)
        figure.last = result.figures
    }

    /// Runs one measure in a child process of `build`'s harness (by default this one) and returns its figures and
    /// its resource usage.
    ///
    /// - Throws: ``MeasureLacking`` when a baseline's harness does not know the measure; ``BenchmarkError`` when the
    ///   measure fails.
    @discardableResult
    func child(
        _ measure: ChildMeasure,
        store: String,
        changes: String,
        build: BenchmarkBuild? = nil
    ) throws -> (figures: [String: Double], outcome: ChildProcess.Outcome) {
        let build = build ?? builds[0]
        let result = folder + "/result.json"
        let log = folder + "/child.log"
        // A child that fails before writing must not leave the last child's figures to be read as its own.
        try? FileManager.default.removeItem(atPath: result)
        let outcome = try ChildProcess.run(
            [
                build.harness, "--measure", measure.rawValue, "--data", folder, "--store", store,
                "--posts", String(options.posts), "--changes", changes, "--result", result,
            ],
            outputPath: log
        )
        guard outcome.status == 0 else {
            let output = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            // Every harness since the child measures began answers a measure it does not know with this, and it is
            // given every other argument here: a baseline built before the measure existed.
            if build.isBaseline, output.contains("bad child arguments") { throw MeasureLacking() }
            let which = build.isBaseline ? " in the baseline" : ""
            throw BenchmarkError("\(measure.rawValue) failed\(which) (status \(outcome.status)): \(output)")
        }
        let figures = try JSONDecoder().decode(
            [String: Double].self,
            from: Data(contentsOf: URL(fileURLWithPath: result))
        )
        return (figures, outcome)
    }

    /// Times whole `poststore` processes of each build, taking turns at every repetition (medians of 21, in ms): a
    /// selective query, and a sync the source answers `304 Not Modified`, each on the build's own indexed store.
    ///
    /// - Returns: Each build's medians, in ``builds``' order; none at all without this build's `poststore`, none
    ///   for a baseline without its own.
    private func measureProcesses() throws -> [[String: Double]] {
        guard builds[0].hasPostStore else {
            FileHandle.standardError.write(
                Data("no poststore at \(options.poststore): whole-process measures skipped\n".utf8)
            )
            return builds.map { _ in [:] }
        }
        let measuring = builds.indices.filter { builds[$0].hasPostStore }
        let server = try NotModifiedServer()
        func arguments(_ key: String, _ build: BenchmarkBuild) -> [String] {
            let store = build.storeFolder + "/index.sqlite"
            return key == "query"
                ? ["query", "--store", store, "--user", String(max(1, options.posts / 20)), "--limit", "10"]
                : ["sync", "--from", server.url, "--store", store, "--quiet"]
        }
        // The first sync stores the ETag; every later one is answered 304.
        for index in measuring {
            try expect(
                try ChildProcess.run([builds[index].poststore] + arguments("notModified", builds[index])).status == 0,
                "the first sync from the server failed (\(builds[index].poststore))"
            )
        }
        var medians = builds.map { _ in [String: Double]() }
        for key in ["query", "notModified"] {
            var times = builds.map { _ in [Double]() }
            for repetition in 1...21 {
                for index in order(run: repetition) where measuring.contains(index) {
                    let command = [builds[index].poststore] + arguments(key, builds[index])
                    let outcome = try ChildProcess.run(command)
                    try expect(outcome.status == 0, "\(command.joined(separator: " ")) failed")
                    times[index].append(outcome.seconds * 1000)
                }
            }
            for index in measuring { medians[index][key] = times[index].sorted()[times[index].count / 2] }
        }
        return medians
    }

    private func removeStore(_ path: String) {
        for suffix in ["", "-wal", "-shm", ".lock"] {
            try? FileManager.default.removeItem(atPath: path + suffix)
        }
    }
}

/// A number with three decimals.
func format(_ value: Double, decimals: Int = 3) -> String {
    String(format: "%.\(decimals)f", value)
}
