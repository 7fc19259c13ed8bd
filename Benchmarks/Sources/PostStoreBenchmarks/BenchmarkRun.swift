import Foundation
import PostStore
import PostStoreJSONFile
import PostStoreSQLite

/// One run of the harness: generates the data, runs every measure `runs` times interleaved, and prints the table.
struct BenchmarkRun {
    let options: BenchmarkOptions
    let folder: String
    private let executable: String

    init(options: BenchmarkOptions) {
        self.options = options
        folder = FileManager.default.temporaryDirectory.path + "/poststore-benchmarks-\(getpid())"
        executable = Bundle.main.executablePath ?? CommandLine.arguments[0]
    }

    /// A child measure's medians over the runs.
    struct Figure {
        var seconds: [Double] = []
        var peakMegabytes: [Double] = []
        var last: [String: Double] = [:]

        var medianSeconds: Double { seconds.sorted()[seconds.count / 2] }
        var maximumMegabytes: Double { peakMegabytes.max() ?? 0 }
    }

    func run() async throws {
        try? FileManager.default.removeItem(atPath: folder)
        try FileManager.default.createDirectory(atPath: folder + "/work", withIntermediateDirectories: true)
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
        var postgres = PostgresResults()
        if options.postgresOnly, let server = options.postgres, let psql {
            for run in 1...options.runs {
                FileHandle.standardError.write(Data("run \(run) of \(options.runs)\n".utf8))
                try runPostgres(server: server, psql: psql, changes: changes, into: &postgres)
            }
            PostgresResultTable(posts: options.posts, fileMegabytes: fileMegabytes, results: postgres).print()
            return
        }

        // Stores the re-sync measures start from, made once.
        try child(.syncSQLite, store: folder + "/index.sqlite", changes: changeArgument)
        try child(.syncSQLiteWithoutIndex, store: folder + "/noindex.sqlite", changes: changeArgument)
        try child(.cLimit, store: folder + "/c.sqlite", changes: changeArgument)
        try child(.cLimitWithSearchIndex, store: folder + "/c-index.sqlite", changes: changeArgument)

        var figures: [ChildMeasure: Figure] = [:]
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
        var commandSyncs: [CommandSync: Figure] = [:]
        let hasPeer = ChildProcess.isInstalled("sqlite-utils")
        let hasPostStore = FileManager.default.isExecutableFile(atPath: options.poststore)
        for run in 1...options.runs {
            FileHandle.standardError.write(Data("run \(run) of \(options.runs)\n".utf8))
            if hasPostStore {
                for kind in CommandSync.allCases {
                    let store = folder + "/work/" + kind.rawValue + ".sqlite"
                    removeStore(store)
                    defer { removeStore(store) }
                    let outcome = try await commandSync(kind, store: store)
                    commandSyncs[kind, default: Figure()].seconds.append(outcome.seconds)
                    commandSyncs[kind, default: Figure()].peakMegabytes.append(outcome.peakMegabytes)
                }
            }
            for (measure, startingFrom) in measured {
                let store = folder + "/work/" + measure.rawValue + (measure == .syncJSONFile ? ".json" : ".sqlite")
                removeStore(store)
                defer { removeStore(store) }
                if let startingFrom {
                    if measure == .resyncSQLiteUnchanged {
                        try record(
                            &figures[measure, default: Figure()],
                            child(measure, store: folder + "/" + startingFrom, changes: changeArgument)
                        )
                        continue
                    }
                    try FileManager.default.copyItem(atPath: folder + "/" + startingFrom, toPath: store)
                }
                try record(&figures[measure, default: Figure()], child(measure, store: store, changes: changeArgument))
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
                try runPostgres(
                    server: server,
                    psql: psql,
                    changes: changes,
                    into: &postgres
                )
            }
        }
        let sizes = ["index.sqlite", "noindex.sqlite"].map { name in
            Double((try? FileManager.default.attributesOfItem(atPath: folder + "/" + name)[.size] as? Int) ?? 0)
                / 1_048_576
        }
        let queries = try child(.queries, store: folder + "/index.sqlite", changes: changeArgument).figures
        let processes = try measureProcesses(store: folder + "/index.sqlite")

        ResultTable(
            posts: options.posts,
            runs: options.runs,
            fileMegabytes: fileMegabytes,
            storeMegabytes: (withIndex: sizes[0], withoutIndex: sizes[1]),
            changes: changes,
            figures: figures,
            peer: hasPeer ? peer : nil,
            queries: queries,
            processes: processes,
            commandSyncs: commandSyncs
        ).print()
        if options.postgres != nil {
            PostgresResultTable(posts: options.posts, fileMegabytes: fileMegabytes, results: postgres).print()
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

    /// Runs `poststore sync` as a user would (a whole process) and checks that the store holds every post.
    private func commandSync(_ kind: CommandSync, store: String) async throws -> ChildProcess.Outcome {
        if kind == .emptyStore {
            _ = try SQLitePostStore(path: store)
        }
        let outcome = try ChildProcess.run(
            [options.poststore, "sync", "--from", folder + "/posts.json", "--store", store, "--quiet"]
                + (kind == .newStoreWithProgress ? ["--progress"] : ["--no-progress"])
        )
        try expect(outcome.status == 0, "poststore sync (\(kind.rawValue)) failed with status \(outcome.status)")
        let count = try await SQLitePostStore(path: store, mode: .openExisting).count()
        try expect(count == options.posts, "poststore sync (\(kind.rawValue)) stored \(count) posts")
        return outcome
    }

    func record(_ figure: inout Figure, _ result: (figures: [String: Double], outcome: ChildProcess.Outcome)) {
        figure.seconds.append(result.figures["seconds"] ?? .nan)
        figure.peakMegabytes.append(result.outcome.peakMegabytes)
        figure.last = result.figures
    }

    /// Runs one measure in a child process and returns its figures and its resource usage.
    @discardableResult
    func child(
        _ measure: ChildMeasure,
        store: String,
        changes: String
    ) throws -> (figures: [String: Double], outcome: ChildProcess.Outcome) {
        let result = folder + "/result.json"
        let log = folder + "/child.log"
        // A child that fails before writing must not leave the last child's figures to be read as its own.
        try? FileManager.default.removeItem(atPath: result)
        let outcome = try ChildProcess.run(
            [
                executable, "--measure", measure.rawValue, "--data", folder, "--store", store,
                "--posts", String(options.posts), "--changes", changes, "--result", result,
            ],
            outputPath: log
        )
        guard outcome.status == 0 else {
            let output = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            throw BenchmarkError("\(measure.rawValue) failed (status \(outcome.status)): \(output)")
        }
        let figures = try JSONDecoder().decode(
            [String: Double].self,
            from: Data(contentsOf: URL(fileURLWithPath: result))
        )
        return (figures, outcome)
    }

    /// Times whole `poststore` processes: a selective query, and a sync the source answers `304 Not Modified`.
    private func measureProcesses(store: String) throws -> [String: Double] {
        guard FileManager.default.isExecutableFile(atPath: options.poststore) else {
            FileHandle.standardError.write(
                Data("no poststore at \(options.poststore): whole-process measures skipped\n".utf8)
            )
            return [:]
        }
        func median(_ arguments: [String]) throws -> Double {
            var times: [Double] = []
            for _ in 0..<21 {
                let outcome = try ChildProcess.run([options.poststore] + arguments)
                try expect(outcome.status == 0, "poststore \(arguments.joined(separator: " ")) failed")
                times.append(outcome.seconds * 1000)
            }
            return times.sorted()[times.count / 2]
        }
        let server = try NotModifiedServer()
        // The first sync stores the ETag; every later one is answered 304.
        let sync = ["sync", "--from", server.url, "--store", store, "--quiet"]
        try expect(
            try ChildProcess.run([options.poststore] + sync).status == 0,
            "the first sync from the server failed"
        )
        return [
            "query": try median([
                "query", "--store", store, "--user", String(max(1, options.posts / 20)), "--limit", "10",
            ]),
            "notModified": try median(sync),
        ]
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
