import Foundation
import PostStore
import PostStorePostgres
import PostStoreServer

/// `swift run -c release --package-path Benchmarks poststore-benchmarks [--observation] [--posts N] [--runs R]
/// [--poststore PATH] [--postgres URL [--postgres-only]] [--baseline-harness PATH [--baseline-name NAME]]`:
/// measures PostStore against the C limit and its own targets side by side in one run, and prints one Markdown
/// table (see `Benchmarks/README.md`); with `--baseline-harness`, an earlier build's measures beside this one's,
/// alternately in every run (`scripts/benchmarks/benchmarks.sh --baseline REF` builds it from a commit); with
/// `--observation`, the observation measures instead
/// (``ObservationBenchmark``); with `--serve-postgres-nio-alone URL PORT [--held]`, the floor under `poststore serve`
/// over PostgreSQL that `scripts/benchmarks/serve-benchmark.py` loads (``serveFloor(_:)``).
///
/// Every sync measure runs in a child process of its own (this program, with `--measure NAME`), so each figure's
/// peak memory is that measure's alone; the runs of all measures are interleaved, and the table shows medians.
@main
struct Benchmarks {
    static func main() async {
        do {
            let arguments = Array(CommandLine.arguments.dropFirst())
            if arguments.first == "--serve-postgres-nio-alone" {
                try await serveFloor(Array(arguments.dropFirst()))
            } else if arguments.first == "--measure" {
                try await runChild(arguments)
            } else if arguments.first == "--observe" {
                try await ObservationChild.run(arguments)
            } else if arguments.first == "--observation" {
                let options = try BenchmarkOptions(parsing: Array(arguments.dropFirst()))
                if options.baselineHarness != nil {
                    throw BenchmarkError("--baseline-harness is for the main measures, not --observation")
                }
                try await ObservationBenchmark.run(options: options)
            } else {
                try await BenchmarkRun(options: try BenchmarkOptions(parsing: arguments)).run()
            }
        } catch {
            // A store's error keeps what it met underneath; a benchmark that fails wants every detail of it.
            let cause = (error as? PostStoreError)?.cause.map { " (underneath: \(String(reflecting: $0)))" } ?? ""
            FileHandle.standardError.write(Data("poststore-benchmarks: \(error)\(cause)\n".utf8))
            exit(1)
        }
    }

    /// `--serve-postgres-nio-alone URL PORT [--held]`: `PostServer` over ``PostgresNIOAloneStore`` on 127.0.0.1, until
    /// SIGINT or SIGTERM (`scripts/benchmarks/serve-benchmark.py`'s floor under `poststore serve` over PostgreSQL).
    static func serveFloor(_ arguments: [String]) async throws {
        guard arguments.count >= 2, let port = Int(arguments[1]) else {
            throw BenchmarkError("usage: poststore-benchmarks --serve-postgres-nio-alone URL PORT [--held]")
        }
        let store = try await PostgresNIOAloneStore(
            location: try PostgresStoreLocation(url: arguments[0]),
            held: arguments.dropFirst(2).first == "--held"
        )
        do {
            try await withThrowingDiscardingTaskGroup { group in
                group.addTask { await store.run() }
                try await PostServer(store: store, configuration: PostServerConfiguration(port: port, accessLog: nil))
                    .run()
                group.cancelAll()
            }
        } catch {
            await store.close()
            throw error
        }
        await store.close()
    }

    /// `--measure NAME --data FOLDER --store PATH --posts N --changes REMOVED,EDITED,ADDED --result FILE`.
    static func runChild(_ arguments: [String]) async throws {
        var values: [String: String] = [:]
        var remaining = arguments[...]
        while let flag = remaining.popFirst(), let value = remaining.popFirst() {
            values[flag] = value
        }
        guard let measure = values["--measure"].flatMap(ChildMeasure.init(rawValue:)), let result = values["--result"],
            let data = values["--data"], let store = values["--store"], let posts = values["--posts"].flatMap(Int.init)
        else { throw BenchmarkError("bad child arguments: \(arguments)") }
        let changes = (values["--changes"] ?? "0,0,0").split(separator: ",").compactMap { Int($0) }
        let context = ChildMeasure.Context(
            dataFolder: data,
            store: store,
            posts: posts,
            changes: (changes[0], changes[1], changes[2])
        )
        let figures = try await measure.run(context)
        try JSONEncoder().encode(figures).write(to: URL(fileURLWithPath: result))
    }
}

/// What the command line asks for.
struct BenchmarkOptions {
    var posts = 1_000_000
    var runs = 3
    /// How long `--observation` measures the processor time of idle observers.
    var idleSeconds = 60
    /// The `poststore` executable for the whole-process measures (skipped when missing): by default the one built
    /// beside this program (`swift build -c release --package-path Benchmarks --product poststore`).
    var poststore = URL(fileURLWithPath: Bundle.main.executablePath ?? CommandLine.arguments[0])
        .deletingLastPathComponent().appendingPathComponent("poststore").path

    /// A PostgreSQL server for the PostgreSQL engine's measures (`postgres://USER@HOST:PORT/DB`, no query); they
    /// are skipped without one. The harness makes its own schemas there and drops them after.
    var postgres: String?
    /// Whether to run the PostgreSQL measures alone (`--postgres-only`), without the file engines'.
    var postgresOnly = false
    /// A baseline build's harness (`--baseline-harness PATH`, its `poststore` beside it), whose measures run beside
    /// this build's in every run, alternately; `benchmarks.sh --baseline REF` builds it from a commit.
    var baselineHarness: String?
    /// What the table calls the baseline (`--baseline-name`), such as the commit it was built from.
    var baselineName = "the baseline"

    init(parsing arguments: [String]) throws {
        var remaining = arguments[...]
        let usage =
            "usage: poststore-benchmarks [--observation] [--posts N] [--runs R] [--idle-seconds S] [--poststore PATH] "
            + "[--postgres URL [--postgres-only]] [--baseline-harness PATH [--baseline-name NAME]]"
        while let flag = remaining.popFirst() {
            if flag == "--postgres-only" {
                postgresOnly = true
                continue
            }
            let valued = [
                "--posts", "--runs", "--idle-seconds", "--poststore", "--postgres", "--baseline-harness",
                "--baseline-name",
            ]
            guard valued.contains(flag) else {
                throw BenchmarkError("unknown option \(flag); \(usage)")
            }
            guard let value = remaining.popFirst() else { throw BenchmarkError("\(flag) needs a value; \(usage)") }
            switch flag {
            case "--posts", "--runs", "--idle-seconds":
                guard let number = Int(value), number > 0 else {
                    throw BenchmarkError("\(flag) needs a positive whole number")
                }
                switch flag {
                case "--posts": posts = number
                case "--runs": runs = number
                default: idleSeconds = number
                }
            case "--poststore":
                guard FileManager.default.isExecutableFile(atPath: value) else {
                    throw BenchmarkError("--poststore \(value) is not an executable file")
                }
                poststore = value
            case "--postgres":
                guard value.hasPrefix("postgres://") || value.hasPrefix("postgresql://"), !value.contains("?") else {
                    throw BenchmarkError("--postgres needs a server URL, postgres://USER@HOST:PORT/DB, without a query")
                }
                postgres = value
            case "--baseline-harness":
                guard FileManager.default.isExecutableFile(atPath: value) else {
                    throw BenchmarkError("--baseline-harness \(value) is not an executable file")
                }
                baselineHarness = value
            case "--baseline-name":
                baselineName = value
            default:
                throw BenchmarkError("unknown option \(flag); \(usage)")
            }
        }
        if postgresOnly, postgres == nil { throw BenchmarkError("--postgres-only needs --postgres URL; \(usage)") }
        if baselineHarness == nil, arguments.contains("--baseline-name") {
            throw BenchmarkError("--baseline-name needs --baseline-harness PATH; \(usage)")
        }
    }
}
