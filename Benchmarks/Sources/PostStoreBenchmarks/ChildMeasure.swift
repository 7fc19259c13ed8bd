import CLimit
import Foundation
import PostStore
import PostStoreJSONFile
import PostStorePostgres
@_spi(Benchmarks) import PostStoreSQLite

/// The measures that run in a child process of their own (`poststore-benchmarks --measure NAME …`), so that each
/// one's peak memory is its own. Each times its own work and writes `{"seconds": …}` (or several named figures) to
/// the result file.
enum ChildMeasure: String, CaseIterable {
    case decodeWithJSONDecoder = "decode-jsondecoder"
    case decodeWithPostStore = "decode-poststore"
    case cLimit = "c-limit"
    case cLimitWithSearchIndex = "c-limit-fts"
    case cLimitChangedResync = "c-limit-resync-changed"
    case cLimitChangedResyncWithSearchIndex = "c-limit-resync-changed-fts"
    case syncSQLiteWithoutIndex = "sync-sqlite-noindex"
    case syncSQLite = "sync-sqlite"
    case resyncSQLiteUnchanged = "resync-sqlite-unchanged"
    case resyncSQLiteChanged = "resync-sqlite-changed"
    case resyncSQLiteChangedWithoutIndex = "resync-sqlite-changed-noindex"
    case syncJSONFile = "sync-json"
    case syncMemory = "sync-memory"
    /// Makes an empty SQLite store (in WAL mode), which `poststore sync` then fills in place: in a child, so that
    /// each build's store is its own library's and an earlier `poststore` is never handed a newer schema.
    case createSQLiteStore = "create-sqlite-store"
    case rebuildIndex = "rebuild-index"
    case rebuildIndexCountingRows = "rebuild-index-counting"
    case queries = "queries"
    case syncPostgresWithoutIndex = "sync-postgres-noindex"
    case syncPostgres = "sync-postgres"
    case resyncPostgresUnchanged = "resync-postgres-unchanged"
    case resyncPostgresChanged = "resync-postgres-changed"
    case queriesPostgres = "queries-postgres"
    /// Writes the CSV files the PostgreSQL anchors copy; in a child because a child's peak memory on Linux counts
    /// the harness's own at the moment of spawning it, so the harness must never hold a million posts.
    case postgresAnchorFiles = "postgres-anchor-files"

    /// What the child needs: the data folder (`posts.json`, `posts-changed.json`), the store it works on (a path,
    /// or a `postgres://` URL naming a schema), and the expected counts.
    struct Context {
        let dataFolder: String
        let store: String
        let posts: Int
        let changes: (removed: Int, edited: Int, added: Int)

        var baseFile: String { dataFolder + "/posts.json" }
        var changedFile: String { dataFolder + "/posts-changed.json" }
    }

    /// Runs the measure and returns its figures.
    func run(_ context: Context) async throws -> [String: Double] {
        switch self {
        case .decodeWithJSONDecoder:
            let data = try Data(contentsOf: URL(fileURLWithPath: context.baseFile))
            let start = ContinuousClock.now
            let posts = try JSONDecoder().decode([Post].self, from: data)
            try expect(posts.count == context.posts, "JSONDecoder read \(posts.count) posts")
            return ["seconds": (ContinuousClock.now - start).seconds, "bytes": Double(data.count)]
        case .decodeWithPostStore:
            let data = try Data(contentsOf: URL(fileURLWithPath: context.baseFile))
            let start = ContinuousClock.now
            let posts = try PostJSON.decode(data)
            try expect(posts.count == context.posts, "PostJSON read \(posts.count) posts")
            return ["seconds": (ContinuousClock.now - start).seconds, "bytes": Double(data.count)]
        case .cLimit:
            return try cLimit(context.baseFile, context.store, searchIndex: false, prune: false, posts: context.posts)
        case .cLimitWithSearchIndex:
            return try cLimit(context.baseFile, context.store, searchIndex: true, prune: false, posts: context.posts)
        case .cLimitChangedResync, .cLimitChangedResyncWithSearchIndex:
            let figures = try cLimit(
                context.changedFile,
                context.store,
                searchIndex: self == .cLimitChangedResyncWithSearchIndex,
                prune: true,
                posts: nil
            )
            let changes = context.changes
            try expect(
                figures["written"] == Double(changes.edited + changes.added)
                    && figures["deleted"] == Double(changes.removed),
                "the C limit's re-sync wrote \(figures), expected \(changes)"
            )
            return figures
        case .syncSQLiteWithoutIndex:
            return try await sync(context.baseFile, expectInserted: context.posts) {
                try SQLitePostStore(path: context.store, searchIndex: false)
            }
        case .syncSQLite:
            return try await sync(context.baseFile, expectInserted: context.posts) {
                try SQLitePostStore(path: context.store)
            }
        case .resyncSQLiteUnchanged:
            return try await sync(context.baseFile, expectUnchanged: context.posts) {
                try SQLitePostStore(path: context.store, mode: .openExisting)
            }
        case .resyncSQLiteChanged, .resyncSQLiteChangedWithoutIndex:
            let keepsIndex = self == .resyncSQLiteChanged
            return try await sync(context.changedFile, prune: true, expectChanges: context.changes) {
                try SQLitePostStore(path: context.store, mode: .openExisting, searchIndex: keepsIndex)
            }
        case .syncJSONFile:
            return try await sync(context.baseFile, expectInserted: context.posts) {
                try JSONFilePostStore(path: context.store)
            }
        case .syncMemory:
            return try await sync(context.baseFile, expectInserted: context.posts) { InMemoryPostStore() }
        case .createSQLiteStore:
            _ = try SQLitePostStore(path: context.store)
            return ["seconds": 0]
        case .rebuildIndex, .rebuildIndexCountingRows:
            let store = try SQLitePostStore(path: context.store, mode: .openExisting)
            let start = ContinuousClock.now
            try await store.rebuildSearchIndex(reportsProgress: self == .rebuildIndexCountingRows)
            return ["seconds": (ContinuousClock.now - start).seconds]
        case .queries:
            return try await QueryMeasures(store: SQLitePostStore(path: context.store, mode: .openExisting)).run()
        case .syncPostgresWithoutIndex, .syncPostgres:
            let location = try PostgresStoreLocation(url: context.store)
            return try await sync(context.baseFile, expectInserted: context.posts) {
                PostgresPostStore(location: location, searchIndex: self == .syncPostgres)
            }
        case .resyncPostgresUnchanged:
            let location = try PostgresStoreLocation(url: context.store)
            return try await sync(context.baseFile, expectUnchanged: context.posts) {
                PostgresPostStore(location: location, mode: .openExisting)
            }
        case .resyncPostgresChanged:
            let location = try PostgresStoreLocation(url: context.store)
            return try await sync(context.changedFile, prune: true, expectChanges: context.changes) {
                PostgresPostStore(location: location, mode: .openExisting)
            }
        case .postgresAnchorFiles:
            let start = ContinuousClock.now
            try PostgresAnchorFile.write(from: context.baseFile, to: context.dataFolder + "/posts.csv")
            try PostgresAnchorFile.write(from: context.changedFile, to: context.dataFolder + "/posts-changed.csv")
            return ["seconds": (ContinuousClock.now - start).seconds]
        case .queriesPostgres:
            let location = try PostgresStoreLocation(url: context.store)
            let store = PostgresPostStore(location: location, mode: .openExisting)
            var figures = try await QueryMeasures(store: store, measuresWholeResults: false).run()
            let alone = try await PostgresNIOAloneMeasure.run(location: location, count: Int(figures["posts"] ?? 0))
            figures["aloneId"] = alone["id"]
            figures["aloneUser"] = alone["user"]
            let kept = PostgresPostStore(location: location, mode: .openExisting, keepsConnectionsOpen: true)
            let keptFigures = try await QueryMeasures(store: kept, measuresWholeResults: false).run()
            figures["keptId"] = keptFigures["id"]
            figures["keptUser"] = keptFigures["user"]
            let aloneKept = try await PostgresNIOAloneMeasure.run(
                location: location,
                count: Int(figures["posts"] ?? 0),
                keepsConnectionsOpen: true
            )
            figures["aloneKeptId"] = aloneKept["id"]
            figures["aloneKeptUser"] = aloneKept["user"]
            return figures
        }
    }

    private func cLimit(
        _ file: String,
        _ store: String,
        searchIndex: Bool,
        prune: Bool,
        posts: Int?
    ) throws -> [String: Double] {
        let schema = try Self.migration("0001_create_posts.sql")
        let index = searchIndex ? try Self.migration("0002_create_search_index.sql") : nil
        var result = climit_result()
        // A re-sync (prune) keeps the index row by row, as PostStore does for a store that holds posts; a first
        // sync builds it in bulk after the posts.
        let status = climit_sync_indexing(file, store, schema, index, prune ? 1 : 0, prune ? 1 : 0, &result)
        let message = withUnsafeBytes(of: result.error) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        try expect(status == 0, "the C limit failed: \(message)")
        if let posts { try expect(result.rows_written == posts, "the C limit wrote \(result.rows_written) rows") }
        return [
            "seconds": result.seconds, "written": Double(result.rows_written), "deleted": Double(result.rows_deleted),
        ]
    }

    /// Times a first sync or a re-sync from a file, store opening included (as the C limit's time includes its
    /// own), and checks its counts.
    private func sync(
        _ file: String,
        prune: Bool = false,
        expectInserted inserted: Int? = nil,
        expectUnchanged unchanged: Int? = nil,
        expectChanges changes: (removed: Int, edited: Int, added: Int)? = nil,
        store makeStore: () throws -> any PostStoreProtocol
    ) async throws -> [String: Double] {
        let start = ContinuousClock.now
        let service = SyncService(dataService: FilePostDataService(path: file), store: try makeStore())
        let report = try await service.sync(SyncOptions(prune: prune, deletionLimit: .unlimited))
        let seconds = (ContinuousClock.now - start).seconds
        if let inserted { try expect(report.inserted == inserted, "inserted \(report.inserted)") }
        if let unchanged {
            try expect(
                report.unchanged == unchanged && report.inserted + report.updated + report.deleted == 0,
                "an unchanged re-sync wrote posts: \(report)"
            )
        }
        if let changes {
            try expect(
                report.inserted == changes.added && report.updated == changes.edited
                    && report.deleted == changes.removed,
                "the changed re-sync did \(report), expected \(changes)"
            )
        }
        return [
            "seconds": seconds, "inserted": Double(report.inserted), "updated": Double(report.updated),
            "deleted": Double(report.deleted), "unchanged": Double(report.unchanged),
        ]
    }

    /// The text of one of the main package's migrations, which the C limit runs so both sides build the same schema.
    static func migration(_ name: String) throws -> String {
        try String(contentsOfFile: mainPackagePath + "/Migrations/SQLite/" + name, encoding: .utf8)
    }

    /// The main package's folder, from this file's place in it.
    static let mainPackagePath = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
}

/// Fails the measure unless `condition` holds: a benchmark whose work went wrong must not print a figure.
func expect(_ condition: Bool, _ message: @autoclosure () -> String) throws {
    if !condition { throw BenchmarkError(message()) }
}
