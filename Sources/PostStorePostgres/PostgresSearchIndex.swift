import PostStore

/// The trigram index on a store's lowercased text, through which searches find their candidates.
///
/// No migration creates it: the first write of a store builds it after its posts are in, since building a GIN index
/// in one pass costs a fraction of keeping it row by row while a million posts are copied in. Later writes find it
/// there, and PostgreSQL keeps it up to date. A store opened with `searchIndex: false` never builds it (one that
/// exists is kept by PostgreSQL all the same); its searches scan the table.
struct PostgresSearchIndex {
    let names: PostgresNames

    /// The index's name in the store's schema.
    static let name = "posts_search_text"

    /// Builds the index unless it exists; the caller holds the write lock, which keeps two writers from building it
    /// at once, and readers go on reading while it is built (`CREATE INDEX` takes a share lock).
    ///
    /// - Parameter progress: Told when the build starts and ends (`indexing`, in rows): one
    ///   `CREATE INDEX` has no steps to report in between.
    func buildIfMissing(in session: PostgresSession, progress: (WorkProgress) -> Void = { _ in }) async throws {
        // The operator class is named with pg_trgm's schema: a write's search path is the store's schema alone.
        let rows = try await session.rows(
            """
            SELECT to_regclass(\(names.quotedSchema + "." + Self.name)) IS NOT NULL, quote_ident(n.nspname)
            FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'pg_trgm'
            """,
            as: (Bool, String).self
        )
        guard let (isPresent, trigramSchema) = rows.first else {
            throw PostStoreError(
                .corruptStore,
                "The PostgreSQL store \(names.schema) cannot build its search index: the pg_trgm extension is gone "
                    + "from the database (CREATE EXTENSION pg_trgm, then try again)."
            )
        }
        guard !isPresent else { return }
        let rowCount = try await session.value("SELECT count(*) FROM \(unescaped: names.posts)", as: Int.self)
        progress(WorkProgress(phase: .indexing, completed: 0, total: rowCount))
        // GIN builds in memory and merges: with 256 MB (PostgreSQL's default is 64) a million posts' index is built
        // in fewer, larger merges. For this transaction only.
        try await session.execute("SET LOCAL maintenance_work_mem = '256MB'")
        try await session.execute(
            """
            CREATE INDEX \(unescaped: Self.name) ON \(unescaped: names.posts)
            USING gin (search_text \(unescaped: trigramSchema).gin_trgm_ops)
            """
        )
        progress(WorkProgress(phase: .indexing, completed: rowCount, total: rowCount, isFinished: true))
    }
}
