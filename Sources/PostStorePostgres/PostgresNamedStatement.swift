import PostStore
import PostgresNIO

/// A statement of the store run as a named prepared statement: parsed and planned once per connection, then only
/// bound and executed, which halves what the server does for a lookup.
///
/// postgres-nio's `PostgresPreparedStatement` takes its name and SQL from static members, as for statements fixed
/// at compile time; a store's SQL names its schema, known only at run time. So there is one type, and its static
/// members read the statement being run from a task-local value, set around the call that runs it
/// (``run(_:on:logger:)``). That is sound because postgres-nio reads `name` and `sql` synchronously, in the task
/// that calls `execute`, before that call first suspends (and again in the same task for an error's message): the
/// value is the one set by this call. The name is a hash of the SQL, so that the same SQL is prepared once per
/// connection whatever calls it, and different SQL never shares a name.
struct PostgresNamedStatement: PostgresPreparedStatement {
    /// The statement being run by this task: its name and SQL.
    @TaskLocal private static var current = (name: "", sql: "")

    static var name: String { current.name }
    static var sql: String { current.sql }

    /// The values of `$1`, `$2`, …; their types are left to the server, which infers them from the SQL.
    let binds: PostgresBindings

    func makeBindings() -> PostgresBindings { binds }

    func decodeRow(_ row: PostgresRow) -> PostgresRow { row }

    /// The name a statement of this SQL is prepared under.
    static func name(of sql: String) -> String {
        var hasher = StableHasher()
        hasher.combine(sql)
        return "poststore_" + hasher.hexadecimal
    }

    /// Runs a statement on a connection, prepared there first if it is not yet, and returns its rows.
    ///
    /// The rows stream through postgres-nio's back-pressured sequence: the caller reads them before the next
    /// statement, and keeps to results of at most ``PostgresSession/boundedRowCount`` rows, which that sequence
    /// takes without ever waiting for its reader (see ``PostgresSession/preparedRows(_:)``).
    static func run(
        _ query: PostgresQuery,
        on connection: PostgresConnection,
        logger: Logger
    ) async throws -> AsyncThrowingMapSequence<PostgresRowSequence, PostgresRow> {
        try await $current.withValue((name(of: query.sql), query.sql)) {
            try await connection.execute(PostgresNamedStatement(binds: query.binds), logger: logger)
        }
    }
}
