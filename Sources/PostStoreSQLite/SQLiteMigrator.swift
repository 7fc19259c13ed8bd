import PostStore
import PostStoreCSQLite

/// Brings a database's schema up to date with the migrations this build carries, and refuses what it cannot.
///
/// Applied migrations are recorded in `poststore_migrations` with their checksum. Each pending migration runs in
/// its own `BEGIN IMMEDIATE` transaction, which also re-reads what is applied, so two processes opening one new
/// file at once apply each migration exactly once. `PRAGMA user_version` follows the newest applied version, for
/// tools that look there.
///
/// Refused, never altered: a database with tables of its own but no `poststore_migrations` (another application's
/// file), one with a migration this build does not know (a newer schema), and one whose applied migration's
/// checksum differs from this build's file.
struct SQLiteMigrator {
    /// Where an applied migration stands against this build.
    struct Status: Sendable, Hashable {
        /// The versions recorded as applied, in order.
        var applied: [Int]
        /// The migrations this build would still apply, in order.
        var pending: [SQLiteMigration]
    }

    /// The migrations to apply, in version order.
    let migrations: [SQLiteMigration]

    /// Whether to check, after migrating, that the tables the store relies on exist.
    let checksSchema: Bool

    /// Creates a migrator.
    ///
    /// - Parameters:
    ///   - migrations: The migrations, in version order; by default the ones embedded in this build.
    ///   - checksSchema: Whether to check the store's tables afterwards; tests that build an old schema turn it off.
    init(migrations: [SQLiteMigration] = SQLiteMigration.all, checksSchema: Bool = true) {
        self.migrations = migrations
        self.checksSchema = checksSchema
    }

    /// Checks, reading only, that the database is empty or a PostStore store this build can open.
    ///
    /// Runs before anything writes to the file (even `PRAGMA journal_mode`, which rewrites its header), so a file
    /// that is refused stays byte for byte as it was.
    ///
    /// - Throws: ``PostStoreError/Code/corruptStore`` for another application's database, and what ``status(_:)``
    ///   throws.
    func checkCanOpen(_ connection: SQLiteConnection) throws {
        let tables = try userTables(connection)
        if tables.contains("poststore_migrations") {
            _ = try status(connection)
        } else if !tables.isEmpty {
            throw PostStoreError(
                .corruptStore,
                "\(connection.path) is an SQLite database of another application (tables: "
                    + "\(tables.sorted().joined(separator: ", "))), not a PostStore store. It was left untouched.",
                path: connection.path
            )
        }
    }

    /// Applies every pending migration; call ``checkCanOpen(_:)`` first.
    ///
    /// An up-to-date database is only read, so opening one needs no write lock and works on a read-only file.
    func migrate(_ connection: SQLiteConnection) throws {
        if try userTables(connection).contains("poststore_migrations"), try status(connection).pending.isEmpty {
            try checkSchema(connection)
            return
        }
        try connection.writeTransaction {
            // Again, under the write lock: another process may have changed the file since the check at open.
            try checkCanOpen(connection)
            if try !userTables(connection).contains("poststore_migrations") {
                try createRecordTable(connection)
            }
        }
        for migration in migrations {
            try connection.writeTransaction {
                guard try !status(connection).applied.contains(migration.version) else { return }
                do {
                    try connection.execute(migration.sql)
                } catch let error as SQLiteError where error.primaryCode == SQLITE_ERROR {
                    // Our own SQL failing means the file's tables do not match its recorded migrations.
                    throw PostStoreError(
                        .corruptStore,
                        "The SQLite store \(connection.path) could not apply \(migration.name): \(error.message). "
                            + "Its tables do not match its recorded migrations; it was left as it was.",
                        path: connection.path,
                        cause: error
                    )
                }
                try connection.withStatement(
                    """
                    INSERT INTO poststore_migrations (version, name, checksum, applied_at)
                    VALUES (?, ?, ?, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
                    """
                ) { statement throws(SQLiteError) in
                    try statement.bind(migration.version, migration.name, migration.checksum)
                    try statement.run()
                }
                try connection.execute("PRAGMA user_version = \(migration.version)")
            }
        }
        try checkSchema(connection)
    }

    /// The tables PostStore's code relies on once every migration is applied.
    static let requiredTables = ["posts", "posts_search", "sync_state", "poststore_settings", "store_revision"]

    /// Checks that the tables the store relies on exist, so a damaged schema is refused at open rather than failing
    /// later with a confusing error.
    private func checkSchema(_ connection: SQLiteConnection) throws {
        guard checksSchema else { return }
        let missing = Set(Self.requiredTables).subtracting(try userTables(connection))
        guard missing.isEmpty else {
            throw PostStoreError(
                .corruptStore,
                "The SQLite store \(connection.path) is damaged: its \(missing.sorted().joined(separator: ", ")) "
                    + "table is missing although every migration is recorded. It was left untouched.",
                path: connection.path
            )
        }
    }

    /// Reads what is applied and checks it against this build's migrations.
    ///
    /// - Throws: ``PostStoreError/Code/unsupportedVersion`` for an unknown (newer) migration,
    ///   ``PostStoreError/Code/migrationMismatch`` for a changed one.
    func status(_ connection: SQLiteConnection) throws -> Status {
        let known = Dictionary(uniqueKeysWithValues: migrations.map { ($0.version, $0) })
        let records = try connection.withStatement(
            "SELECT version, name, checksum FROM poststore_migrations ORDER BY version"
        ) { statement throws(SQLiteError) in
            try statement.rows { ($0.int(at: 0), $0.text(at: 1), $0.text(at: 2)) }
        }
        for (version, name, checksum) in records {
            guard let migration = known[version] else {
                let newest = migrations.last?.version ?? 0
                throw PostStoreError(
                    .unsupportedVersion,
                    "The SQLite store \(connection.path) has schema version \(version) (\(name)), newer than the "
                        + "\(newest) this PostStore knows; upgrade PostStore to open it. It was left untouched.",
                    path: connection.path
                )
            }
            guard migration.checksum == checksum, migration.name == name else {
                throw PostStoreError(
                    .migrationMismatch,
                    "Migration \(name) applied to \(connection.path) differs from this build's "
                        + "\(migration.name) (checksum \(checksum), expected \(migration.checksum)). The store "
                        + "was left untouched; use the PostStore build that created it.",
                    path: connection.path
                )
            }
        }
        let applied = records.map(\.0)
        return Status(applied: applied, pending: migrations.filter { !applied.contains($0.version) })
    }

    /// Whether the database records migrations at all (a new, empty file does not yet).
    func hasRecordTable(_ connection: SQLiteConnection) throws(SQLiteError) -> Bool {
        try userTables(connection).contains("poststore_migrations")
    }

    private func userTables(_ connection: SQLiteConnection) throws(SQLiteError) -> [String] {
        try connection.withStatement(
            "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'"
        ) { statement throws(SQLiteError) in
            try statement.rows { $0.text(at: 0) }
        }
    }

    private func createRecordTable(_ connection: SQLiteConnection) throws(SQLiteError) {
        try connection.execute(
            """
            CREATE TABLE poststore_migrations (
                version    INTEGER PRIMARY KEY,
                name       TEXT NOT NULL,
                checksum   TEXT NOT NULL,
                applied_at TEXT NOT NULL
            )
            """
        )
    }
}
