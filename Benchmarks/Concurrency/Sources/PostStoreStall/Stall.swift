import Foundation
import PostStore
import PostStoreSQLite
import Synchronization

/// An app's other work while it syncs: the process syncs a posts file into two new SQLite stores at once, while a
/// reader looks up a post of the first store every 10 ms (it reads the last committed state) and a ticker sleeps
/// 10 ms in a loop (how late it wakes is how long Swift's cooperative pool was held). It prints one line of JSON:
/// the sync's seconds and each one's p50, p99 and max in milliseconds.
///
/// Usage: poststore-stall POSTS.json SEED.json FOLDER. SEED holds the posts the first store is synced from first,
/// for the reader to find (ids 1 to 100); FOLDER receives the two stores, which are deleted at the end.
///
/// With `--lookups STORE` it times calls one after another on a filled store instead, as the main harness does
/// (`QueryMeasures`): the p50 in microseconds of 20,000 lookups by id and of 5,000 user filters.
@main
struct Stall {
    static func main() async throws {
        let arguments = CommandLine.arguments
        if arguments.count == 3, arguments[1] == "--lookups" {
            try await timeLookups(in: arguments[2])
            return
        }
        guard arguments.count == 4 else {
            let usage = "usage: poststore-stall POSTS.json SEED.json FOLDER | poststore-stall --lookups STORE\n"
            FileHandle.standardError.write(Data(usage.utf8))
            exit(64)
        }
        let (posts, seed, folder) = (arguments[1], arguments[2], arguments[3])
        let paths = [folder + "/stall-1.sqlite", folder + "/stall-2.sqlite"]
        defer { for path in paths { for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) } } }
        let first = try SQLitePostStore(path: paths[0])
        let second = try SQLitePostStore(path: paths[1])
        _ = try await SyncService(dataService: FilePostDataService(path: seed), store: first).sync(SyncOptions())

        let syncing = Flag()
        async let lookups = measure(while: syncing) {
            let started = ContinuousClock.now
            _ = try? await first.post(id: Int.random(in: 1...100))
            let took = ContinuousClock.now - started
            try? await Task.sleep(for: .milliseconds(10))
            return took
        }
        async let lateness = measure(while: syncing) {
            let started = ContinuousClock.now
            try? await Task.sleep(for: .milliseconds(10))
            return ContinuousClock.now - started - .milliseconds(10)
        }
        let started = ContinuousClock.now
        async let other = SyncService(dataService: FilePostDataService(path: posts), store: second).sync(SyncOptions())
        let report = try await SyncService(dataService: FilePostDataService(path: posts), store: first)
            .sync(SyncOptions())
        _ = try await other
        let took = ContinuousClock.now - started
        syncing.clear()
        let result: [String: Any] = [
            "inserted": report.inserted,
            "seconds": took.seconds,
            "lookup": summary(await lookups),
            "lateness": summary(await lateness),
        ]
        print(String(decoding: try JSONSerialization.data(withJSONObject: result, options: .sortedKeys), as: UTF8.self))
    }

    static func timeLookups(in path: String) async throws {
        let store = try SQLitePostStore(path: path, mode: .openExisting)
        let count = try await store.count()
        var random = SystemRandomNumberGenerator()
        func p50(_ repetitions: Int, _ call: () async throws -> Void) async throws -> Double {
            var times: [Double] = []
            for _ in 0..<repetitions {
                let started = ContinuousClock.now
                try await call()
                times.append((ContinuousClock.now - started).seconds * 1e6)
            }
            return times.sorted()[repetitions / 2]
        }
        let id = try await p50(20_000) { _ = try await store.post(id: Int.random(in: 1...count, using: &random)) }
        let user = try await p50(5_000) {
            _ = try await store.query(PostQuery(userIds: [Int.random(in: 1...50, using: &random)], limit: 10))
        }
        let result = ["id": id, "user": user]
        print(String(decoding: try JSONSerialization.data(withJSONObject: result, options: .sortedKeys), as: UTF8.self))
    }

    /// Runs `sample` until `flag` is cleared, collecting what it measures.
    static func measure(while flag: Flag, _ sample: () async -> Duration) async -> [Duration] {
        var samples: [Duration] = []
        while flag.isSet { samples.append(await sample()) }
        return samples
    }

    /// The count, p50, p99 and max of `samples`, in milliseconds.
    static func summary(_ samples: [Duration]) -> [String: Double] {
        let sorted = samples.map { $0.seconds * 1000 }.sorted()
        func at(_ fraction: Double) -> Double {
            sorted.isEmpty ? .nan : sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]
        }
        return ["count": Double(sorted.count), "p50": at(0.5), "p99": at(0.99), "max": sorted.last ?? .nan]
    }
}

/// A flag that one task clears and others read.
final class Flag: Sendable {
    private let value = Mutex(true)

    var isSet: Bool { value.withLock { $0 } }
    func clear() { value.withLock { $0 = false } }
}

extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
