import ArgumentParser
import Foundation
import PostStore
import PostStoreEngines
import PostStoreLive

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
    @OptionGroup var progressOptions: ProgressOptions

    @Option(name: .long, help: "text or json.")
    var format: Format = .text

    func validate() throws {
        try options.refuseInMemory("so there is nothing to describe; name a file or database store")
    }

    func run() async throws {
        let spec = try options.spec()
        try await Failure.report(Self.self, verbose: options.verbose) {
            let store = try await StoreOptions.existingStore(spec, drawing: progressOptions)
            let (postCount, lastSync, schemaVersion) = try await Self.countLastSyncAndVersion(of: store, spec)
            let info = StoreInfo(
                engine: spec.engine.scheme,
                location: spec.displayLocation,
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

    /// The post count, the newest sync state and the version of the store's format, from one state of the store
    /// (see `StoreDescribing`: every engine of the table conforms, as `EngineContractTests` checks).
    private static func countLastSyncAndVersion(
        of store: any PostStoreProtocol,
        _ spec: StoreSpec
    ) async throws -> (Int, SyncState?, Int?) {
        guard let store = store as? any StoreDescribing else {
            throw PostStoreError(.invalidArgument, "The \(spec.engine) engine's stores cannot describe themselves.")
        }
        let description = try await store.describe()
        return (description.count, description.syncStates.first, description.formatVersion)
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
