import PostStore
public import PostStoreEngines

extension StoreEngine {
    /// ``SQLitePostStore``: `sqlite:PATH`, or a path ending in `.sqlite`, `.sqlite3` or `.db`.
    public static let sqlite = StoreEngine(
        scheme: "sqlite",
        fileExtensions: ["sqlite", "sqlite3", "db"],
        locationKind: .file,
        open: { path, options in
            try SQLitePostStore(
                path: path ?? "",
                mode: options.mode,
                busyTimeout: options.lockTimeout,
                searchIndex: true,
                migrator: SQLiteMigrator(),
                clock: try options.clock(),
                staged: options.isStaged,
                progress: options.progress
            )
        },
        migrationStatus: { path in
            let status = try SQLitePostStore.schemaStatus(ofStoreAt: path)
            return MigrationStatus(
                applied: status.applied.map(\.name),
                pending: status.pending.map(\.name),
                version: status.version
            )
        },
        finishStaging: { path in try SQLitePostStore.finishStaging(at: path) },
        checkNothingLeftBehind: { path in try SQLitePostStore.checkNoLogLeftBehind(at: path) }
    )
}
