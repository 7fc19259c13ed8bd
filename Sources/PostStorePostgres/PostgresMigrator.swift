import PostStore
import PostStoreEngines
import PostStorePostgresMigrations
import PostgresNIO

/// Creates and upgrades a store's schema from the numbered, checksummed files of `Migrations/PostgreSQL/`.
///
/// A store is a PostgreSQL schema holding a `poststore_migrations` table that records each applied file by version,
/// name and checksum. Pending migrations are applied in one transaction under an advisory lock on the store, so two
/// machines opening a new store at once do not collide: the second waits (at most the lock timeout), then finds the
/// work done; other stores do not wait for it. A store recording a version this build does not know is refused, and so is one whose
/// recorded file differs from this build's; neither is written to.
struct PostgresMigrator {
    /// Where the store's schema stands.
    struct Status: Sendable, Equatable {
        /// Whether the schema exists with its record table.
        var exists: Bool
        /// The versions applied, in order.
        var applied: [SchemaMigration]
        /// The migrations to apply, in order.
        var pending: [SchemaMigration]
        /// The newest applied version; 0 for none.
        var version: Int { applied.last?.version ?? 0 }
    }

    /// The migrations this build carries, from the embedded `Migrations/PostgreSQL/` folder, in version order.
    static let all = SchemaMigration.list(
        embeddedMigrations,
        folder: "Migrations/PostgreSQL"
    )

    /// The first half of the key of the advisory lock that migrates a store; the second is the hash of its schema's
    /// name (two names of one hash only take turns).
    static let advisoryLockClass: Int32 = 0x5053_5452  // "PSTR"

    let names: PostgresNames
    let server: String
    /// How long to wait for another process's migration before `storeBusy`.
    let lockTimeout: Duration
    let migrations: [SchemaMigration]

    init(names: PostgresNames, server: String, lockTimeout: Duration, migrations: [SchemaMigration] = Self.all) {
        self.names = names
        self.server = server
        self.lockTimeout = lockTimeout
        self.migrations = migrations
    }

    /// Reads the schema's status, changing nothing.
    ///
    /// - Throws: `unsupportedVersion` for a newer schema, `migrationMismatch` for a changed file, `corruptStore` for
    ///   a schema of other tables, or what the server says.
    func status(_ session: PostgresSession) async throws -> Status {
        let schemaExists = try await session.value(
            "SELECT EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = \(names.schema))",
            as: Bool.self
        )
        guard schemaExists else { return Status(exists: false, applied: [], pending: migrations) }
        let tables = try await session.rows(
            "SELECT tablename FROM pg_tables WHERE schemaname = \(names.schema) ORDER BY tablename",
            as: String.self
        ).map { $0 }
        guard tables.contains("poststore_migrations") else {
            guard tables.isEmpty else {
                throw PostStoreError(
                    .corruptStore,
                    "The schema \(names.schema) at \(server) holds other tables (\(Self.some(of: tables))), "
                        + "not a PostStore store. It was left untouched; name another schema with ?schema=NAME."
                )
            }
            return Status(exists: false, applied: [], pending: migrations)
        }
        let records = try await session.rows(
            "SELECT version, name, checksum FROM \(unescaped: names.migrations) ORDER BY version",
            as: (Int, String, String).self
        )
        let known = Dictionary(uniqueKeysWithValues: migrations.map { ($0.version, $0) })
        var applied: [SchemaMigration] = []
        for (version, name, checksum) in records {
            guard let migration = known[version] else {
                throw PostStoreError(
                    .unsupportedVersion,
                    "The PostgreSQL store \(names.schema) at \(server) has schema version \(version) (\(name)), newer "
                        + "than the \(migrations.last?.version ?? 0) this PostStore knows; upgrade PostStore to open it. "
                        + "It was left untouched."
                )
            }
            guard migration.checksum == checksum, migration.name == name else {
                throw PostStoreError(
                    .migrationMismatch,
                    "Migration \(name) applied to the PostgreSQL store \(names.schema) at \(server) differs from this "
                        + "build's \(migration.name) (checksum \(checksum), expected \(migration.checksum)). The store "
                        + "was left untouched; use the PostStore build that created it."
                )
            }
            applied.append(migration)
        }
        let appliedVersions = Set(applied.map(\.version))
        return Status(
            exists: true,
            applied: applied,
            pending: migrations.filter { !appliedVersions.contains($0.version) }
        )
    }

    /// Brings the schema up to date, creating it when `mode` allows; returns the status it leaves.
    ///
    /// - Throws: `storeNotFound` when the store does not exist and `mode` is `.openExisting`; the errors of
    ///   ``status(_:)``; `invalidData` for an older store holding text with a NUL character, which the text
    ///   columns cannot hold; what the server says (a missing privilege, `pg_trgm` not installed).
    @discardableResult
    func migrate(_ session: PostgresSession, mode: StoreOpenMode) async throws -> Status {
        let before = try await status(session)
        if before.exists, before.pending.isEmpty { return before }
        if !before.exists, mode == .openExisting { throw notFound }
        try await checkEncoding(session)
        do {
            return try await migrateUnderLock(session, mode: mode)
        } catch  where ["23505", "42710"].contains(PostgresFailure.sqlState(of: error)) {
            // Another store's migration created pg_trgm, which belongs to the whole database, at the same moment:
            // it is there now.
            return try await migrateUnderLock(session, mode: mode)
        }
    }

    /// Applies the pending migrations in one transaction that holds the store's migration lock.
    private func migrateUnderLock(_ session: PostgresSession, mode: StoreOpenMode) async throws -> Status {
        try await session.transaction(server: server) { session in
            // Another process's migration is waited for at most the lock timeout (then `storeBusy`), not forever.
            try await session.execute(
                "SELECT set_config('lock_timeout', \(String(PostgresPostStore.milliseconds(lockTimeout))), true)"
            )
            try await session.execute(
                "SELECT pg_advisory_xact_lock(\(Self.advisoryLockClass), hashtext(\(names.schema)))"
            )
            // Again, under the lock: another process may have migrated the store meanwhile.
            let status = try await status(session)
            if !status.exists, mode == .openExisting { throw notFound }
            try await session.execute("CREATE SCHEMA IF NOT EXISTS \(unescaped: names.quotedSchema)")
            try await session.execute(
                """
                CREATE TABLE IF NOT EXISTS \(unescaped: names.migrations) (
                    version integer PRIMARY KEY,
                    name text NOT NULL,
                    checksum text NOT NULL,
                    applied_at timestamptz NOT NULL DEFAULT now()
                )
                """
            )
            for migration in status.pending {
                if status.exists, migration.version == Self.textColumnsVersion {
                    try await checkTextFitsTextColumns(session)
                }
                try await setSearchPath(session)
                for statement in Self.statements(of: migration.sql) {
                    try await session.execute(PostgresQuery(unsafeSQL: statement))
                }
                try await session.execute(
                    """
                    INSERT INTO \(unescaped: names.migrations) (version, name, checksum)
                    VALUES (\(migration.version), \(migration.name), \(migration.checksum))
                    """
                )
            }
            return Status(exists: true, applied: status.applied + status.pending, pending: [])
        }
    }

    /// `storeNotFound` for a store that is not there.
    var notFound: PostStoreError {
        PostStoreError(
            .storeNotFound,
            "There is no PostStore store in schema \(names.schema) of the PostgreSQL database \(server)."
        )
    }

    /// Points unqualified names at the store's schema, then at the schema `pg_trgm` lives in (public by default).
    private func setSearchPath(_ session: PostgresSession) async throws {
        let extensionSchema = try await session.rows(
            """
            SELECT n.nspname FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
            WHERE e.extname = 'pg_trgm'
            """,
            as: String.self
        ).first
        let path = [names.quotedSchema] + [extensionSchema, "public"].compactMap { $0.map(PostgresNames.quoted) }
        try await session.execute("SET LOCAL search_path TO \(unescaped: path.joined(separator: ", "))")
    }

    /// Refuses a database whose encoding is not UTF-8: its text could not hold every post's lowercased text.
    private func checkEncoding(_ session: PostgresSession) async throws {
        let encoding = try await session.value("SELECT current_setting('server_encoding')", as: String.self)
        guard encoding == "UTF8" else {
            throw PostStoreError(
                .invalidArgument,
                "The PostgreSQL database \(server) has encoding \(encoding); PostStore needs UTF8 "
                    + "(CREATE DATABASE … ENCODING 'UTF8' TEMPLATE template0)."
            )
        }
    }

    /// The statements of a migration file: each ends with `;` at the end of a line; `--` comments are dropped.
    static func statements(of sql: String) -> [String] {
        var statements: [String] = []
        var current = ""
        for line in sql.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingPrefix(while: \.isWhitespace)
            if trimmed.hasPrefix("--") { continue }
            current += line + "\n"
            if line.trimmingSuffix(while: \.isWhitespace).hasSuffix(";") {
                statements.append(current)
                current = ""
            }
        }
        if !current.allSatisfy(\.isWhitespace) { statements.append(current) }
        return statements
    }
}

extension Substring {
    fileprivate func trimmingSuffix(while predicate: (Character) -> Bool) -> Substring {
        var end = endIndex
        while end > startIndex, predicate(self[index(before: end)]) { end = index(before: end) }
        return self[startIndex..<end]
    }
}

extension PostgresMigrator {
    /// The first few names of a list, and how many more there are: a schema may hold hundreds of tables.
    static func some(of names: [String], shown: Int = 5) -> String {
        let more = names.count > shown ? " and \(names.count - shown) more" : ""
        return names.prefix(shown).joined(separator: ", ") + more
    }
}
