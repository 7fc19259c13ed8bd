import PostStore
import PostgresNIO

/// Posts gathered into five arrays and inserted by one statement, `INSERT … SELECT * FROM unnest(…)`: how a write
/// streams its posts in, a batch at a time, inside its transaction, without a round trip per post.
///
/// Title and body go as `text`, `search_text` as the title and body lowercased by Swift (as ``TextSearch``
/// lowercases). None holds a NUL character: the writer refuses a post with one before it gets here.
///
/// Not `COPY … FROM STDIN`, although it is faster: postgres-nio 1.33.2 stops the process on a failed precondition
/// when the connection of a `COPY` in progress closes (a server restarting, a terminated backend), where a statement
/// just fails and the write is tried again. Benchmarks/README.md gives what that costs.
struct PostgresPostBatch {
    /// The columns each post fills, in the order of the arrays.
    static let columns = "id, user_id, title, body, search_text"

    /// How many bytes of text are gathered before a statement sends them: large enough that the statements cost
    /// little, small enough that a batch's arrays stay a few megabytes.
    static let byteLimit = 2 << 20

    private var ids: [Int] = []
    private var userIds: [Int] = []
    private var titles: [String] = []
    private var bodies: [String] = []
    private var searchTexts: [String] = []
    private var bytes = 0

    /// Whether enough is gathered to send.
    var isFull: Bool { bytes >= Self.byteLimit }

    /// Adds a post.
    mutating func append(_ post: Post) {
        ids.append(post.id)
        userIds.append(post.userId)
        titles.append(post.title)
        bodies.append(post.body)
        var search = post.title.lowercased()
        search += "\n"
        search += post.body.lowercased()
        searchTexts.append(search)
        bytes += 2 * (post.title.utf8.count + post.body.utf8.count) + 16
    }

    /// Inserts what is gathered into a table of the search path, and starts again.
    ///
    /// - Parameters:
    ///   - table: The table.
    ///   - revision: The revision the posts are written at, for the posts table itself; `nil` for a table without
    ///     revisions.
    ///   - session: The session, in a transaction.
    mutating func insert(into table: String, revision: Int?, session: PostgresSession) async throws {
        guard !ids.isEmpty else { return }
        if let revision {
            try await session.execute(
                """
                INSERT INTO \(unescaped: table) (\(unescaped: Self.columns), revision)
                SELECT *, \(revision)::bigint FROM unnest(\(ids)::bigint[], \(userIds)::bigint[], \(titles)::text[],
                    \(bodies)::text[], \(searchTexts)::text[])
                """
            )
        } else {
            try await session.execute(
                """
                INSERT INTO \(unescaped: table) (\(unescaped: Self.columns))
                SELECT * FROM unnest(\(ids)::bigint[], \(userIds)::bigint[], \(titles)::text[], \(bodies)::text[],
                    \(searchTexts)::text[])
                """
            )
        }
        ids.removeAll(keepingCapacity: true)
        userIds.removeAll(keepingCapacity: true)
        titles.removeAll(keepingCapacity: true)
        bodies.removeAll(keepingCapacity: true)
        searchTexts.removeAll(keepingCapacity: true)
        bytes = 0
    }
}
