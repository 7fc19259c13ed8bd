import PostStore
import PostStoreEngines
import PostStoreSQLiteMigrations

/// One versioned change to the SQLite schema.
typealias SQLiteMigration = SchemaMigration

extension SchemaMigration {
    /// The SQLite migrations this build carries, from the embedded `Migrations/SQLite/` folder, in version order.
    static let all = list(embeddedMigrations, folder: "Migrations/SQLite")
}
