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
    /// The values the conditions name as `$1`, `$2`, …; the window's two follow them.
    private let binds: PostgresBindings
    /// The window: at most `limit` posts (`nil`: all) after the first `offset`.
    private let limit: Int?
    private let offset: Int
    /// Whether the query has a search, whose terms make the SQL differ from one search to the next.
    let searches: Bool
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
        // One value is compared with `=`, not `= ANY`: the planner cannot tell how many values an array holds, so
        // it would judge a generic plan too dear and plan again at every run of the prepared statement.
        func matching(_ column: String, _ values: Set<Int>?) {
            guard let values else { return }
            if values.count == 1, let value = values.first {
                conditions.append("\(column) = \(bind(value))")
            } else {
                conditions.append("\(column) = ANY(\(bind(Array(values))))")
            }
        }
        matching("id", query.ids)
        matching("user_id", query.userIds)
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
        limit = query.limit
        offset = query.offset
        searches = !TextSearch(query.search).isEmpty
        self.binds = binds
    }

    /// `LIMIT $n OFFSET $m` after the conditions' values, and the values with the window's appended: the same SQL
    /// for every window, so that a prepared statement serves them all.
    private func window(limitedTo cap: Int?) -> (sql: String, binds: PostgresBindings) {
        var binds = binds
        let limit = [limit, cap].compactMap { $0 }.min()
        binds.append(limit)
        binds.append(offset)
        return (" LIMIT $\(binds.count - 1) OFFSET $\(binds.count)", binds)
    }

    /// Whether the query's window holds at most `count` posts.
    func windowIsAtMost(_ count: Int) -> Bool {
        limit.map { $0 <= count } ?? false
    }

    /// The query's posts, as rows of `id, user_id, title, body`, sorted and windowed; with `cap`, at most that many
    /// of the window's.
    func rows(limitedTo cap: Int? = nil) -> PostgresQuery {
        let window = window(limitedTo: cap)
        return PostgresQuery(
            unsafeSQL:
                "SELECT id, user_id, title, body FROM \(posts) WHERE \(conditions) ORDER BY \(order)\(window.sql)",
            binds: window.binds
        )
    }

    /// The query's page in one statement, so one snapshot: rows of `revision, total, id, user_id, title, body`, the
    /// revision (``PostgresPostStore/revisionExpression``) and the count of every match on each, the window's
    /// posts in order; one row of `NULL` post columns when the window is empty.
    ///
    /// - Parameter storeRevision: The store's `store_revision` table, qualified.
    func page(storeRevision: String) -> PostgresQuery {
        let window = window(limitedTo: nil)
        return PostgresQuery(
            unsafeSQL: """
                SELECT \(PostgresPostStore.revisionExpression), matched.total, p.id, p.user_id, p.title, p.body
                FROM \(storeRevision)
                CROSS JOIN (SELECT count(*) AS total FROM \(posts) WHERE \(conditions)) matched
                LEFT JOIN LATERAL (
                    SELECT id, user_id, title, body FROM \(posts) WHERE \(conditions) ORDER BY \(order)\(window.sql)
                ) p ON true
                ORDER BY \(order.split(separator: ", ").map { "p." + $0 }.joined(separator: ", "))
                """,
            binds: window.binds
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
