import Foundation
import PostStore
import PostStoreJSONFile
import PostStorePostgres
import PostStoreSQLite
import PostStoreTestSupport
import Testing

/// The engines a server test runs on: every engine, PostgreSQL when the tests have a server
/// (`POSTSTORE_TEST_POSTGRES_URL`).
enum ServedEngine: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case memory, sqlite, json, postgres

    /// The engines this run can test.
    static var available: [ServedEngine] {
        allCases.filter { $0 != .postgres || PostgresTestURL.base != nil }
    }

    var testDescription: String { rawValue }

    /// A new, empty store of this engine (files named `name` in `folder`, a new schema on PostgreSQL).
    func makeStore(in folder: TemporaryDirectory, name: String = "served") async throws -> any PostStoreProtocol {
        switch self {
        case .memory:
            return InMemoryPostStore()
        case .sqlite:
            return try SQLitePostStore(path: folder.file(name + ".sqlite"))
        case .json:
            return try JSONFilePostStore(path: folder.file(name + ".json"))
        case .postgres:
            let schema = "serve_" + UUID().uuidString.prefix(8).lowercased()
            // As `poststore serve` opens it: its connections open at once and kept (one on each event loop).
            let store = try PostgresPostStore(
                location: PostgresStoreLocation(url: PostgresTestURL.url(schema: schema)),
                maximumConnections: 2,
                keepsConnectionsOpen: true
            )
            try await store.migrate()
            return store
        }
    }
}
