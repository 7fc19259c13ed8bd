import PostStore
import PostgresNIO

/// The SQL that answers a ``PostQuery`` on a PostgreSQL store: its rows, or its page (the revision, the total of its
/// matches and its window) in one statement.
///
/// Filters, search, order and window are all SQL. A search becomes one `LIKE` per term on `search_text`, the title
/// and the body lowercased by Swift as ``TextSearch`` lowercases them, joined by a line break; a term holds no
/// whitespace, so it matches there exactly when it matches the title or the body, and `LIKE` compares code points,
/// so the answer is ``TextSearch``'s own. No stored text holds a NUL character (a PostgreSQL store refuses one), so
/// a term with one matches nothing.
struct PostgresQueryPlan {
    /// The selection's conditions, after `WHERE`.
    private let conditions: String
    /// The order, after `ORDER BY`.
    private let order: String
    /// The window, `LIMIT … OFFSET …`, or empty.
    private let window: String
    /// The values the conditions and the window name as `$1`, `$2`, ….
    private let binds: PostgresBindings
    /// The posts table, qualified.
    private let posts: String

    init(_ query: PostQuery, posts: String) {
        self.posts = posts
        var conditions = ["true"]
        var binds = PostgresBindings()
        func bind(_ value: some PostgresNonThrowingEncodable) -> String {
            binds.append(value)
            return "$\(binds.count)"
        }
        if let ids = query.ids { conditions.append("id = ANY(\(bind(Array(ids))))") }
        if let userIds = query.userIds { conditions.append("user_id = ANY(\(bind(Array(userIds))))") }
        for term in TextSearch(query.search).terms {
            if term.unicodeScalars.contains("\0") {
                conditions.append("false")
            } else {
                conditions.append("search_text LIKE \(bind("%" + Self.likeEscaped(term) + "%"))")
            }
        }
        self.conditions = conditions.joined(separator: " AND ")
        // The columns' collation, "C", compares bytes: UTF-8's code-point order, whatever the database's collation.
        order =
            switch query.sort {
            case .idAscending: "id"
            case .idDescending: "id DESC"
            case .title: "title, id"
            case .titleDescending: "title DESC, id"
            case .user: "user_id, id"
            case .userDescending: "user_id DESC, id"
            }
        var window = ""
        if let limit = query.limit { window += " LIMIT \(bind(limit))" }
        if query.offset > 0 { window += " OFFSET \(bind(query.offset))" }
        self.window = window
        self.binds = binds
    }

    /// The query's posts, as rows of `id, user_id, title, body`, sorted and windowed.
    var rows: PostgresQuery {
        PostgresQuery(
            unsafeSQL: "SELECT id, user_id, title, body FROM \(posts) WHERE \(conditions) ORDER BY \(order)\(window)",
            binds: binds
        )
    }

    /// The query's page in one statement, so one snapshot: rows of `revision, total, id, user_id, title, body`, the
    /// revision (``PostgresPostStore/revisionExpression``) and the count of every match on each, the window's
    /// posts in order; one row of `NULL` post columns when the window is empty.
    ///
    /// - Parameter storeRevision: The store's `store_revision` table, qualified.
    func page(storeRevision: String) -> PostgresQuery {
        PostgresQuery(
            unsafeSQL: """
                SELECT \(PostgresPostStore.revisionExpression), matched.total, p.id, p.user_id, p.title, p.body
                FROM \(storeRevision)
                CROSS JOIN (SELECT count(*) AS total FROM \(posts) WHERE \(conditions)) matched
                LEFT JOIN LATERAL (
                    SELECT id, user_id, title, body FROM \(posts) WHERE \(conditions) ORDER BY \(order)\(window)
                ) p ON true
                ORDER BY \(order.split(separator: ", ").map { "p." + $0 }.joined(separator: ", "))
                """,
            binds: binds
        )
    }

    /// A term as a `LIKE` pattern that matches it literally (`\`, `%` and `_` escaped with `\`).
    static func likeEscaped(_ term: String) -> String {
        var escaped = ""
        for character in term.unicodeScalars {
            if character == "\\" || character == "%" || character == "_" { escaped.unicodeScalars.append("\\") }
            escaped.unicodeScalars.append(character)
        }
        return escaped
    }
}
