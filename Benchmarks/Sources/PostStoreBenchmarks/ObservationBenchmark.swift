import Foundation
import PostStore
import PostStoreJSONFile
import PostStorePostgres
import PostStoreSQLite

#if canImport(Glibc)
import Glibc
#endif

/// `poststore-benchmarks --observation [--posts N] [--runs R] [--idle-seconds S] [--postgres URL]`: what issue 31 asks of observation,
/// per engine, in one run, printed as one Markdown table (see `Benchmarks/README.md`, "Observation").
///
/// Every figure is measured in a child process of its own (this program, with `--observe MEASURE`), so that the
/// processor time it reads is the measure's alone:
/// - **latency**: 300 single-post writes, 50 ms apart, by another instance in the observer's process (`same`), or
///   by another process (`other`; another connection for PostgreSQL), each timed from its commit (the write's
///   return, on the system's monotonic clock) to the observer's result holding it;
/// - **idle**: the process's processor time over 60 s (`--idle-seconds`) with 100 observers of 100 queries waiting, none writing,
///   beside the same process with none;
/// - **sync**: a first sync of `--posts` posts from a file, with 10 observers of queries by user waiting in the same
///   process, against none; runs alternated, medians;
/// - **PostgreSQL writers**: 8 instances writing single-post transactions for 10 s, with an observer's listener
///   in the process and without; runs alternated, medians.
enum ObservationBenchmark {
    /// The engines measured: in memory, SQLite, JSON file, and PostgreSQL with a server.
    static func engines(postgres: String?) -> [String] {
        ["memory", "sqlite", "json"] + (postgres == nil ? [] : ["postgres"])
    }

    /// Runs every measure and prints the table.
    static func run(options: BenchmarkOptions) async throws {
        let folder = FileManager.default.temporaryDirectory.path + "/poststore-observation-\(getpid())"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let data = folder + "/posts.json"
        try PostFileGenerator().writeFile(count: options.posts, to: data)
        let me = Bundle.main.executablePath ?? CommandLine.arguments[0]
        var rows: [[String]] = []
        var schemaNumber = 0
        /// A store for one measure: a new file, or a new schema.
        func store(_ engine: String) -> String {
            schemaNumber += 1
            switch engine {
            case "postgres": return (options.postgres ?? "") + "?schema=observe_\(getpid())_\(schemaNumber)"
            case "json": return folder + "/store-\(schemaNumber).json"
            default: return folder + "/store-\(schemaNumber).sqlite"
            }
        }
        func child(_ arguments: [String]) throws -> [String: Double] {
            let result = folder + "/result.json"
            let outcome = try ChildProcess.run([me, "--observe"] + arguments + ["--result", result])
            guard outcome.status == 0, let bytes = FileManager.default.contents(atPath: result) else {
                throw BenchmarkError("the observation measure \(arguments) failed (status \(outcome.status))")
            }
            return try JSONDecoder().decode([String: Double].self, from: bytes)
        }
        for engine in engines(postgres: options.postgres) {
            for writer in engine == "memory" ? ["same"] : ["same", "other"] {
                let figures = try child(["latency", "--engine", engine, "--store", store(engine), "--writer", writer])
                rows.append([
                    "\(engine): latency, writer in \(writer == "same" ? "the same process" : "another process")",
                    String(
                        format: "p50 %.2f ms, p99 %.2f ms, max %.2f ms",
                        figures["p50"]!,
                        figures["p99"]!,
                        figures["max"]!
                    ),
                    String(format: "%.0f of %.0f writes delivered", figures["delivered"]!, figures["writes"]!),
                ])
            }
            let seconds = ["--seconds", String(options.idleSeconds)]
            let idle = try child(["idle", "--engine", engine, "--store", store(engine), "--observers", "0"] + seconds)
            let busy = try child(
                ["idle", "--engine", engine, "--store", store(engine), "--observers", "100"] + seconds
            )
            rows.append([
                "\(engine): CPU over \(options.idleSeconds) s, 100 idle observers",
                String(format: "%.3f%% of a core", busy["percent"]!),
                String(format: "none: %.3f%%", idle["percent"]!),
            ])
            var plain: [Double] = []
            var observed: [Double] = []
            for _ in 0..<options.runs {
                for observers in ["0", "10"] {
                    let figures = try child([
                        "sync", "--engine", engine, "--store", store(engine), "--observers", observers, "--data", data,
                    ])
                    if observers == "0" {
                        plain.append(figures["seconds"]!)
                    } else {
                        observed.append(figures["seconds"]!)
                    }
                }
            }
            let (none, ten) = (median(plain), median(observed))
            rows.append([
                "\(engine): first sync of \(options.posts) posts, 10 observers",
                String(format: "%.2f s (none: %.2f s)", ten, none),
                String(format: "%+.1f%%", (ten / none - 1) * 100),
            ])
        }
        if options.postgres != nil {
            var without: [Double] = []
            var with: [Double] = []
            for _ in 0..<options.runs {
                for listener in ["0", "1"] {
                    let figures = try child([
                        "writers", "--engine", "postgres", "--store", store("postgres"), "--listener", listener,
                    ])
                    if listener == "0" {
                        without.append(figures["perSecond"]!)
                    } else {
                        with.append(figures["perSecond"]!)
                    }
                }
            }
            rows.append([
                "postgres: 8 writers, single-post transactions, with a listener",
                String(format: "%.0f/s (without: %.0f/s)", median(with), median(without)),
                String(format: "%.2f×", median(with) / median(without)),
            ])
        }
        print("| measure | result | beside |")
        print("| --- | ---: | ---: |")
        for row in rows { print("| " + row.joined(separator: " | ") + " |") }
    }

    private static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? .nan : sorted[sorted.count / 2]
    }
}

/// One observation measure, in a child process (`--observe MEASURE --engine E --store S … --result FILE`).
enum ObservationChild {
    static func run(_ arguments: [String]) async throws {
        var values: [String: String] = [:]
        var remaining = arguments.dropFirst(2)[...]
        while let flag = remaining.popFirst(), let value = remaining.popFirst() { values[flag] = value }
        let measure = arguments.count > 1 ? arguments[1] : ""
        guard let engine = values["--engine"], let location = values["--store"] else {
            throw BenchmarkError("bad observation arguments: \(arguments)")
        }
        let figures: [String: Double]
        switch measure {
        case "latency":
            figures = try await latency(engine, location, otherProcess: values["--writer"] == "other")
        case "write":
            try await write(engine, location, count: Int(values["--writes"] ?? "") ?? 0, times: values["--times"]!)
            return
        case "idle":
            figures = try await idle(
                engine,
                location,
                observers: Int(values["--observers"] ?? "") ?? 0,
                seconds: Int(values["--seconds"] ?? "") ?? 60
            )
        case "sync":
            figures = try await sync(
                engine,
                location,
                observers: Int(values["--observers"] ?? "") ?? 0,
                data: values["--data"]!
            )
        case "writers":
            figures = try await writers(location, listener: values["--listener"] == "1")
        default:
            throw BenchmarkError("unknown observation measure \(measure)")
        }
        try JSONEncoder().encode(figures).write(to: URL(fileURLWithPath: values["--result"]!))
    }

    /// The store of an engine at a location.
    static func open(_ engine: String, _ location: String) throws -> any PostStoreProtocol {
        switch engine {
        case "memory": InMemoryPostStore()
        case "sqlite": try SQLitePostStore(path: location)
        case "json": try JSONFilePostStore(path: location)
        case "postgres": PostgresPostStore(location: try PostgresStoreLocation(url: location))
        default: throw BenchmarkError("unknown engine \(engine)")
        }
    }

    /// Now on the system's monotonic clock, in nanoseconds: the same clock in every process.
    static func monotonicNanoseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }

    /// The processor time of this process so far, in seconds.
    static func processorSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let user = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
        let system = Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
        return user + system
    }

    static let writes = 300
    static let spacing = Duration.milliseconds(50)

    /// The post of write `number`.
    static func post(_ number: Int) -> Post {
        Post(userId: 1, id: 1, title: "write \(number)", body: "observed")
    }

    /// Writes `count` posts 50 ms apart, recording each commit's time (a line `NUMBER NANOSECONDS` in `times`).
    static func write(
        _ engine: String,
        _ location: String,
        count: Int,
        times: String,
        store: (any PostStoreProtocol)? = nil
    )
        async throws
    {
        let store = try store ?? open(engine, location)
        var lines = ""
        for number in 1...count {
            try await Task.sleep(for: spacing)
            try await store.upsert([post(number)])
            lines += "\(number) \(monotonicNanoseconds())\n"
        }
        try lines.write(toFile: times, atomically: true, encoding: .utf8)
    }

    static func latency(_ engine: String, _ location: String, otherProcess: Bool) async throws -> [String: Double] {
        let store = try open(engine, location)
        try await store.upsert([post(0)])
        let delivered = LockedDeliveries()
        let ready = AsyncStream.makeStream(of: Void.self)
        let observer = Task {
            var isFirst = true
            for try await post in store.observePost(id: 1) {
                let now = monotonicNanoseconds()
                if isFirst { ready.continuation.yield() }
                isFirst = false
                if let number = post.flatMap({ Int($0.title.dropFirst(6)) }) { delivered.record(number, now) }
                if post?.title == "write \(writes)" { return }
            }
        }
        var readiness = ready.stream.makeAsyncIterator()
        _ = await readiness.next()
        let times = FileManager.default.temporaryDirectory.path + "/poststore-observe-\(getpid()).times"
        if otherProcess {
            let me = Bundle.main.executablePath ?? CommandLine.arguments[0]
            let arguments = [
                "--observe", "write", "--engine", engine, "--store", location, "--writes", "\(writes)", "--times",
                times,
            ]
            // Waited for on a thread of its own: the pool's threads are the observer's.
            let outcome = try await withCheckedThrowingContinuation { continuation in
                Thread { continuation.resume(with: Result { try ChildProcess.run([me] + arguments) }) }.start()
            }
            guard outcome.status == 0 else { throw BenchmarkError("the writer process failed") }
        } else {
            let writer = engine == "memory" ? store : try open(engine, location)
            try await write(engine, location, count: writes, times: times, store: writer)
        }
        try await observer.value
        let commits = try String(contentsOfFile: times, encoding: .utf8).split(separator: "\n").map {
            $0.split(separator: " ").map { Int64($0)! }
        }
        let deliveries = delivered.all
        var latencies: [Double] = []
        for commit in commits {
            guard let at = deliveries[Int(commit[0])] else { continue }
            latencies.append(max(0, Double(at - commit[1]) / 1e6))
        }
        latencies.sort()
        func percentile(_ p: Double) -> Double { latencies[min(latencies.count - 1, Int(Double(latencies.count) * p))] }
        return [
            "p50": percentile(0.5), "p99": percentile(0.99), "max": latencies.last ?? .nan,
            "delivered": Double(latencies.count), "writes": Double(writes),
        ]
    }

    /// Starts `count` observers of the queries `query` makes of their numbers, and returns once each has its first
    /// result.
    static func startObserving(
        _ store: any PostStoreProtocol,
        _ count: Int,
        query: @escaping @Sendable (Int) -> PostQuery
    ) async -> [Task<Void, any Error>] {
        let started = AsyncStream.makeStream(of: Void.self)
        let tasks = (0..<count).map { number in
            Task {
                for try await _ in store.observe(query(number)) { started.continuation.yield() }
            }
        }
        var starts = started.stream.makeAsyncIterator()
        for _ in 0..<count { _ = await starts.next() }
        return tasks
    }

    static func idle(
        _ engine: String,
        _ location: String,
        observers: Int,
        seconds: Int
    ) async throws -> [String: Double] {
        let store = try open(engine, location)
        try await store.upsert((1...1_000).map { Post(userId: $0 % 100, id: $0, title: "post \($0)", body: "b") })
        let tasks = await startObserving(store, observers) { PostQuery(userIds: [$0]) }
        let before = processorSeconds()
        try await Task.sleep(for: .seconds(seconds))
        let percent = (processorSeconds() - before) / Double(seconds) * 100
        for task in tasks { task.cancel() }
        return ["percent": percent]
    }

    static func sync(
        _ engine: String,
        _ location: String,
        observers: Int,
        data: String
    ) async throws -> [String: Double] {
        let store = try open(engine, location)
        let tasks = await startObserving(store, observers) { PostQuery(userIds: [$0 + 1], limit: 20) }
        let start = ContinuousClock.now
        let report = try await SyncService(dataService: FilePostDataService(path: data), store: store).sync()
        let seconds = (ContinuousClock.now - start).seconds
        guard report.inserted > 0 else { throw BenchmarkError("the sync inserted nothing") }
        for task in tasks { task.cancel() }
        return ["seconds": seconds]
    }

    static func writers(_ location: String, listener: Bool) async throws -> [String: Double] {
        let stores = (0..<8).map { _ in PostgresPostStore(location: try! PostgresStoreLocation(url: location)) }
        for store in stores { try await store.migrate() }
        let started = AsyncStream.makeStream(of: Void.self)
        let observer =
            listener
            ? Task { for try await _ in stores[0].observePost(id: 1) { started.continuation.yield() } } : nil
        if listener {
            var starts = started.stream.makeAsyncIterator()
            _ = await starts.next()
        }
        let deadline = ContinuousClock.now + .seconds(10)
        let counts = try await withThrowingTaskGroup(of: Int.self) { group in
            for (number, store) in stores.enumerated() {
                group.addTask {
                    var count = 0
                    while ContinuousClock.now < deadline {
                        let id = number * 1_000_000 + count + 1
                        try await store.upsert([Post(userId: number, id: id, title: "written", body: "b")])
                        count += 1
                    }
                    return count
                }
            }
            return try await group.reduce(0, +)
        }
        observer?.cancel()
        return ["perSecond": Double(counts) / 10]
    }
}

/// The delivery time of each write an observer saw, by its number.
final class LockedDeliveries: Sendable {
    private let deliveries = LockedValue<[Int: Int64]>([:])

    func record(_ number: Int, _ nanoseconds: Int64) {
        deliveries.withLock { $0[number] = $0[number] ?? nanoseconds }
    }

    var all: [Int: Int64] { deliveries.withLock { $0 } }
}

/// A value behind a lock.
final class LockedValue<Value: Sendable>: @unchecked Sendable {
    // Every access to `value` holds `lock`.
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}
