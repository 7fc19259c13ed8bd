import PostStore

/// Where a SQLite store's schema stands: the migrations applied to it and those this build would still apply.
public struct SQLiteSchemaStatus: Sendable, Hashable {
    /// One migration, by its version and file name (`2`, `0002_create_search_index.sql`).
    public struct Migration: Sendable, Hashable {
        /// The version, from the file name's number.
        public let version: Int
        /// The file name, for example `0002_create_search_index.sql`.
        public let name: String
    }

    /// The migrations applied, in order.
    public let applied: [Migration]

    /// The migrations this build would apply on opening the store, in order.
    public let pending: [Migration]

    /// The schema version: the newest applied migration's version, 0 for a new file.
    public var version: Int { applied.last?.version ?? 0 }
}

extension SQLitePostStore {
    /// Reads where the schema of the store at `path` stands, changing nothing (opening a store applies pending
    /// migrations; this does not).
    ///
    /// - Parameter path: The database file.
    /// - Returns: The applied and pending migrations.
    /// - Throws: `PostStoreError`: `storeNotFound`, `corruptStore` (also for another application's database),
    ///   `unsupportedVersion`, `migrationMismatch`, `ioFailure`.
    public static func schemaStatus(ofStoreAt path: String) throws -> SQLiteSchemaStatus {
        try PathCheck.validate(path, naming: "The SQLite store's path")
        guard SQLiteConnection.databaseExists(atPath: path) else {
            throw noStore(at: path)
        }
        do {
            let connection = try SQLiteConnection(path: fileName(for: path), create: false, busyTimeout: .seconds(5))
            let migrator = SQLiteMigrator()
            try migrator.checkCanOpen(connection)
            let names = Dictionary(uniqueKeysWithValues: migrator.migrations.map { ($0.version, $0.name) })
            let all = migrator.migrations.map { SQLiteSchemaStatus.Migration(version: $0.version, name: $0.name) }
            guard try migrator.hasRecordTable(connection) else {
                return SQLiteSchemaStatus(applied: [], pending: all)
            }
            let status = try migrator.status(connection)
            return SQLiteSchemaStatus(
                applied: status.applied.map { SQLiteSchemaStatus.Migration(version: $0, name: names[$0] ?? "") },
                pending: status.pending.map { SQLiteSchemaStatus.Migration(version: $0.version, name: $0.name) }
            )
        } catch let error as SQLiteError {
            throw error.postStoreError(path: path)
        }
    }
}
