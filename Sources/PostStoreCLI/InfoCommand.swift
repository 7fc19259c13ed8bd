import ArgumentParser
import Foundation
import PostStore

/// `poststore info`: what a store is and holds.
struct InfoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Show a store's engine, location, schema version, post count and last sync.",
        discussion: """
            Examples:
              poststore info --store demo.sqlite
              poststore info --format json
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    @OptionGroup var options: StoreOptions

    @Option(name: .long, help: "text or json.")
    var format: Format = .text

    func run() async throws {
        let spec = try options.spec()
        try await Failure.report(verbose: options.verbose) {
            let store = try StoreOptions.store(spec, openMode: .openExisting)
            let (postCount, lastSync, schemaVersion) = try await Self.countLastSyncAndVersion(of: store, spec)
            let info = StoreInfo(
                engine: spec.engine,
                location: spec.path ?? "memory",
                schemaVersion: schemaVersion,
                postCount: postCount,
                lastSync: lastSync.map(StoreInfo.LastSync.init)
            )
            switch format {
            case .json: Output.data(try info.json() + Data("\n".utf8))
            case .text: Output.line(info.text)
            }
        }
    }

    /// The post count, the newest sync state and the version of the store's file: a JSON store's reads all three from
    /// one read of its file, so the version is the one the file records (not the build's
    /// ``JSONStoreDocument/currentVersion``); a SQLite store's schema version is read after the other two.
    private static func countLastSyncAndVersion(
        of store: any PostStoreProtocol,
        _ spec: StoreSpec
    ) async throws -> (Int, SyncState?, Int?) {
        if let store = store as? JSONFilePostStore {
            let (count, states, formatVersion) = try await store.countSyncStatesAndFormatVersion()
            return (count, states.first, formatVersion)
        }
        let (count, lastSync) = try await countAndLastSync(of: store)
        return (count, lastSync, try sqliteSchemaVersion(spec))
    }

    /// The post count and the newest sync state, from one state of the store: every engine reads both at once
    /// (one SQLite read transaction, one read of the JSON file). For any other store the count is read between two
    /// reads of the sync states, and read again if a sync (which always saves its state) committed in between.
    private static func countAndLastSync(of store: any PostStoreProtocol) async throws -> (Int, SyncState?) {
        if let store = store as? any CountAndSyncStatesReading {
            let (count, states) = try await store.countAndSyncStates()
            return (count, states.first)
        }
        var states = try await store.syncStates()
        for _ in 0..<10 {
            let count = try await store.count()
            let statesAfter = try await store.syncStates()
            if statesAfter == states { return (count, states.first) }
            states = statesAfter
        }
        // Syncs kept committing: the last reads are as close together as they get.
        return (try await store.count(), states.first)
    }

    /// The SQLite schema version; nil for any other store (a JSON store's version comes from its own read).
    private static func sqliteSchemaVersion(_ spec: StoreSpec) throws -> Int? {
        guard case .sqlite(let path) = spec else { return nil }
        return try SQLitePostStore.schemaStatus(ofStoreAt: path).version
    }
}

/// What `info` prints.
struct StoreInfo: Encodable {
    struct LastSync: Encodable {
        let source: String
        let syncedAt: String
        let etag: String?
        let fetched: Int

        private enum CodingKeys: String, CodingKey {
            case source, syncedAt, etag, fetched
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(source, forKey: .source)
            try container.encode(syncedAt, forKey: .syncedAt)
            try container.encode(etag, forKey: .etag)
            try container.encode(fetched, forKey: .fetched)
        }

        init(_ state: SyncState) {
            source = state.source
            syncedAt = state.syncedAt.formatted(.iso8601)
            etag = state.etag
            fetched = state.fetched
        }
    }

    let engine: String
    let location: String
    let schemaVersion: Int?
    let postCount: Int
    let lastSync: LastSync?

    var text: String {
        var lines = [
            "engine:         \(engine)",
            "location:       \(location)",
            "schema version: \(schemaVersion.map(String.init) ?? "-")",
            "posts:          \(postCount)",
        ]
        if let lastSync {
            lines.append("last sync:      \(lastSync.syncedAt) from \(lastSync.source) (\(lastSync.fetched) fetched)")
            lines.append("etag:           \(lastSync.etag ?? "-")")
        } else {
            lines.append("last sync:      never")
        }
        // The path, the source and the etag come from the user and a server: their controls are shown, not sent.
        return lines.map(\.withVisibleControls).joined(separator: "\n")
    }

    private enum CodingKeys: String, CodingKey {
        case engine, location, schemaVersion, postCount, lastSync
    }

    /// Every key, with `null` where there is no value, so scripts can rely on them.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(engine, forKey: .engine)
        try container.encode(location, forKey: .location)
        try container.encode(schemaVersion, forKey: .schemaVersion)
        try container.encode(postCount, forKey: .postCount)
        try container.encode(lastSync, forKey: .lastSync)
    }

    func json() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }
}
