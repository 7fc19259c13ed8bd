import Foundation
import Logging
import PostStore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `swift run -c release --package-path Benchmarks poststore-benchmarks [--posts N] [--runs R]`: times bulk writes
/// on every engine side by side in one run, then queries on SQLite, and prints the tables.
///
/// Each measure runs R times on a fresh store in a temporary folder; the table shows the median, and each measure's
/// ratio to the baseline measured in the same run (the SQLite store writing without its search index).
@main
struct Benchmarks {
    struct Options {
        var posts = 100_000
        var runs = 3
    }

    struct Measure: Sendable {
        let name: String
        let run: @Sendable (_ posts: [Post], _ folder: String) async throws -> Void
    }

    static func main() async {
        do {
            try await run(parse(Array(CommandLine.arguments.dropFirst())))
        } catch {
            FileHandle.standardError.write(Data("poststore-benchmarks: \(error)\n".utf8))
            exit(1)
        }
    }

    static func parse(_ arguments: [String]) throws -> Options {
        var options = Options()
        var remaining = arguments[...]
        while let flag = remaining.popFirst() {
            guard ["--posts", "--runs"].contains(flag) else {
                throw UsageError(message: "unknown option \(flag); usage: poststore-benchmarks [--posts N] [--runs R]")
            }
            guard let value = remaining.popFirst().flatMap(Int.init), value > 0 else {
                throw UsageError(message: "\(flag) needs a positive whole number")
            }
            switch flag {
            case "--posts": options.posts = value
            case "--runs": options.runs = value
            default: break
            }
        }
        return options
    }

    static let measures: [Measure] = [
        Measure(name: "SQLite, no search index (baseline)") { posts, folder in
            try await SQLitePostStore(path: folder + "/s.sqlite", searchIndex: false).upsert(posts)
        },
        Measure(name: "SQLite, search index kept") { posts, folder in
            try await SQLitePostStore(path: folder + "/s.sqlite").upsert(posts)
        },
        Measure(name: "SQLite, no index, then one rebuild") { posts, folder in
            try await SQLitePostStore(path: folder + "/s.sqlite", searchIndex: false).upsert(posts)
            _ = try SQLitePostStore(path: folder + "/s.sqlite", mode: .openExisting)
        },
        Measure(name: "SQLite, unchanged re-upsert") { posts, folder in
            let store = try SQLitePostStore(path: folder + "/s.sqlite")
            try await store.upsert(posts)
            let start = ContinuousClock.now
            let summary = try await store.upsert(posts)
            precondition(summary.unchanged == posts.count)
            throw Timed(duration: ContinuousClock.now - start)
        },
        Measure(name: "JSON file") { posts, folder in
            try await JSONFilePostStore(path: folder + "/s.json").upsert(posts)
        },
        Measure(name: "in-memory") { posts, _ in
            try await InMemoryPostStore().upsert(posts)
        },
    ]

    static func run(_ options: Options) async throws {
        let posts = generatePosts(count: options.posts)
        print("PostStore bulk upsert of \(options.posts) posts, median of \(options.runs) runs, \(machine())")
        print("")
        var medians: [Duration] = []
        for measure in measures {
            var times: [Duration] = []
            for _ in 0..<options.runs {
                let folder = FileManager.default.temporaryDirectory.appendingPathComponent("poststore-bench-\(UUID())")
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                defer { try? FileManager.default.removeItem(at: folder) }
                let start = ContinuousClock.now
                do {
                    try await measure.run(posts, folder.path)
                    times.append(ContinuousClock.now - start)
                } catch let timed as Timed {
                    times.append(timed.duration)
                }
            }
            medians.append(times.sorted()[times.count / 2])
        }
        let width = measures.map(\.name.count).max()!
        print("measure".padding(toLength: width, withPad: " ", startingAt: 0) + "   seconds   × baseline")
        for (measure, median) in zip(measures, medians) {
            let seconds = median.seconds
            let baseline = medians[0].seconds
            print(
                measure.name.padding(toLength: width, withPad: " ", startingAt: 0)
                    + String(format: "   %7.3f   %9.2f", seconds, seconds / baseline)
            )
        }
        try await measureSyncs(posts: posts, runs: options.runs)
        try await measureQueries(posts: posts)
        print("\npeak RSS of the whole run: \(peakResidentMegabytes()) MB")
    }

    /// Times ``SyncService`` pulling `posts` from a JSON file into each engine: the first sync (every post new) and
    /// an unchanged re-sync, beside reading and checking the file alone; medians of `runs`.
    static func measureSyncs(posts: [Post], runs: Int) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("poststore-bench-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let arrayFile = folder.path + "/posts.json"
        let linesFile = folder.path + "/posts.ndjson"
        let encoded = try JSONEncoder().encode(posts)
        try encoded.write(to: URL(fileURLWithPath: arrayFile))
        let lines = try posts.map { String(decoding: try JSONEncoder().encode($0), as: UTF8.self) }
        try Data(lines.joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: linesFile))
        let quiet = Logger(label: "benchmarks") { _ in SwiftLogNoOpLogHandler() }

        func median(_ body: () async throws -> Duration) async throws -> Double {
            var times: [Duration] = []
            for _ in 0..<runs { times.append(try await body()) }
            return times.sorted()[times.count / 2].seconds
        }
        func timeFetch(_ path: String) async throws -> Duration {
            let start = ContinuousClock.now
            _ = try await FilePostDataService(path: path).fetchPosts(PostFetchRequest())
            return ContinuousClock.now - start
        }
        let megabytes = Double(encoded.count) / 1_048_576
        print(
            "\nsync \(posts.count) posts from a file (\(String(format: "%.1f", megabytes)) MB)   first sync   re-sync (s)"
        )
        print(
            "read + check the JSON array only".padding(toLength: 44, withPad: " ", startingAt: 0)
                + String(format: "%11.3f", try await median { try await timeFetch(arrayFile) })
        )
        print(
            "read + check newline-delimited JSON only".padding(toLength: 44, withPad: " ", startingAt: 0)
                + String(format: "%11.3f", try await median { try await timeFetch(linesFile) })
        )
        let engines: [(String, @Sendable (String) throws -> any PostStoreProtocol)] = [
            ("into SQLite (search index kept)", { try SQLitePostStore(path: $0 + "/s.sqlite") }),
            ("into SQLite (no search index)", { try SQLitePostStore(path: $0 + "/s.sqlite", searchIndex: false) }),
            ("into a JSON file", { try JSONFilePostStore(path: $0 + "/s.json") }),
            ("into memory", { _ in InMemoryPostStore() }),
        ]
        for (name, makeStore) in engines {
            var resyncs: [Duration] = []
            let first = try await median {
                let storeFolder = folder.path + "/\(UUID())"
                try FileManager.default.createDirectory(atPath: storeFolder, withIntermediateDirectories: true)
                defer { try? FileManager.default.removeItem(atPath: storeFolder) }
                let sync = SyncService(
                    dataService: FilePostDataService(path: arrayFile),
                    store: try makeStore(storeFolder),
                    clock: SystemClock(),
                    logger: quiet
                )
                let start = ContinuousClock.now
                let report = try await sync.sync()
                let elapsed = ContinuousClock.now - start
                precondition(report.inserted == posts.count)
                let again = ContinuousClock.now
                let resync = try await sync.sync()
                precondition(resync.unchanged == posts.count)
                resyncs.append(ContinuousClock.now - again)
                return elapsed
            }
            let resync = resyncs.sorted()[resyncs.count / 2].seconds
            print(
                name.padding(toLength: 44, withPad: " ", startingAt: 0)
                    + String(format: "%11.3f   %11.3f", first, resync)
            )
        }
    }

    /// Times queries on a SQLite store holding `posts`: the median of many repetitions, per query.
    static func measureQueries(posts: [Post]) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("poststore-bench-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try SQLitePostStore(path: folder.path + "/s.sqlite")
        try await store.upsert(posts)
        let rare = "Quokka"
        let queries: [(String, PostQuery, Int)] = [
            ("lookup by id", PostQuery(ids: [posts.count / 2]), 2000),
            ("filter by user, 10 results", PostQuery(userIds: [posts.count / 20]), 2000),
            ("search a rare term \"\(rare)\"", PostQuery(search: rare), 20),
            ("search a common term \"dolor\", first 10", PostQuery(search: "dolor", limit: 10), 20),
            ("search a common term \"dolor\", count all", PostQuery(search: "dolor"), 5),
            ("search a two-letter term \"qu\", first 10", PostQuery(search: "qu", limit: 10), 20),
        ]
        print("\nquery on SQLite with \(posts.count) posts   median µs   results")
        for (name, query, repetitions) in queries {
            var times: [Duration] = []
            var results = 0
            for _ in 0..<repetitions {
                let start = ContinuousClock.now
                results = try await store.query(query).count
                times.append(ContinuousClock.now - start)
            }
            let median = times.sorted()[times.count / 2]
            let micros = median.seconds * 1e6
            print(
                name.padding(toLength: 44, withPad: " ", startingAt: 0)
                    + String(format: "%11.1f   %7d", micros, results)
            )
        }
    }

    /// Posts in the JSONPlaceholder layout, about 350 bytes each, the same on every run.
    static func generatePosts(count: Int) -> [Post] {
        let words = [
            "lorem", "ipsum", "dolor", "sit", "amet", "qui", "est", "esse", "quia", "et", "suscipit",
            "recusandae", "consequuntur", "expedita", "reprehenderit", "molestiae", "voluptate", "nostrum",
        ]
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(truncatingIfNeeded: state >> 33)
        }
        func sentence(_ count: Int) -> String {
            (0..<count).map { _ in words[next() % words.count] }.joined(separator: " ")
        }
        return (1...count).map { id in
            if id % 1_000 == 500 {
                return Post(userId: (id - 1) / 10 + 1, id: id, title: "the quokka " + sentence(4), body: sentence(30))
            }
            return Post(
                userId: (id - 1) / 10 + 1,
                id: id,
                title: sentence(6),
                body: (0..<4).map { _ in sentence(8) }.joined(separator: "\n")
            )
        }
    }

    static func peakResidentMegabytes() -> Int {
        var usage = rusage()
        #if canImport(Darwin)
        getrusage(RUSAGE_SELF, &usage)
        return Int(usage.ru_maxrss) / 1_048_576
        #else
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Int(usage.ru_maxrss) / 1024
        #endif
    }

    static func machine() -> String {
        let gibibytes = Double(ProcessInfo.processInfo.physicalMemory) / Double(1 << 30)
        return "\(ProcessInfo.processInfo.activeProcessorCount) cores, " + String(format: "%.1f GiB", gibibytes)
    }
}

extension Duration {
    /// The duration in seconds, as a floating-point number.
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}

/// A measure that timed only part of its work reports the time by throwing this.
struct Timed: Error {
    let duration: Duration
}

struct UsageError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
