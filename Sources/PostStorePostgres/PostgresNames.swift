import PostStore

/// The SQL names of one store's schema and tables, quoted once so that any schema name is safe in a statement.
struct PostgresNames: Sendable, Hashable {
    /// The schema's name as the user gave it.
    let schema: String
    /// The schema's name as an SQL identifier.
    let quotedSchema: String
    /// `schema.posts`.
    let posts: String
    /// `schema.sync_state`.
    let syncState: String
    /// `schema.poststore_migrations`.
    let migrations: String
    /// `schema.store_revision`.
    let storeRevision: String
    /// `schema.post_tombstones`.
    let tombstones: String
    /// `schema.post_writes`.
    let writes: String

    /// The channel of the store's notifications (`LISTEN`/`NOTIFY`): `SCHEMA.changes`, or `poststore.HASH` for a
    /// schema whose name would not fit a channel's 63 bytes or holds a double quote (postgres-nio's `LISTEN` does
    /// not escape one).
    let changesChannel: String

    init(schema: String) {
        self.schema = schema
        if schema.utf8.count <= 55, !schema.contains("\"") {
            changesChannel = schema + ".changes"
        } else {
            var hasher = StableHasher()
            hasher.combine(schema)
            changesChannel = "poststore." + hasher.hexadecimal
        }
        quotedSchema = Self.quoted(schema)
        posts = quotedSchema + ".posts"
        syncState = quotedSchema + ".sync_state"
        migrations = quotedSchema + ".poststore_migrations"
        storeRevision = quotedSchema + ".store_revision"
        tombstones = quotedSchema + ".post_tombstones"
        writes = quotedSchema + ".post_writes"
    }

    /// An identifier in double quotes, inner quotes doubled: SQL's own escaping, which leaves no way out.
    static func quoted(_ name: String) -> String {
        "\"" + name.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"") + "\""
    }
}
