import PostStore
public import PostStoreEngines

extension StoreEngine {
    /// ``PostgresPostStore``: `postgres://USER:PASSWORD@HOST:PORT/DATABASE?schema=NAME` (or `postgresql://…`), with
    /// libpq's environment variables (`PGHOST`, `PGPORT`, `PGUSER`, `PGPASSWORD`, `PGDATABASE`) for what the URL
    /// leaves out. The store connects on its first call.
    public static let postgres = StoreEngine(
        scheme: "postgres",
        schemeAliases: ["postgresql"],
        fileExtensions: [],
        locationKind: .serverURL,
        open: { url, options in
            PostgresPostStore(
                location: try PostgresStoreLocation(url: url ?? ""),
                mode: options.mode,
                lockTimeout: options.lockTimeout,
                keepsConnectionsOpen: options.servesRequests,
                logger: options.logger
            )
        },
        migrationStatus: { url in
            let store = PostgresPostStore(location: try PostgresStoreLocation(url: url), mode: .openExisting)
            let status = try await store.migrationStatus()
            guard status.exists else { throw store.notFound }
            return MigrationStatus(
                applied: status.applied.map(\.name),
                pending: status.pending.map(\.name),
                version: status.version
            )
        },
        displayLocation: { url in
            (try? PostgresStoreLocation(url: url).description) ?? PostgresStoreLocation.redacting(url)
        },
        checkKeepable: { post, index in try PostgresPostStore.checkKeepable(post, at: index) }
    )
}
