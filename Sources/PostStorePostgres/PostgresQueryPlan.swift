import PostStore
import PostgresNIO

/// The statement that answers a ``PostQuery`` on a PostgreSQL store, and what is left to do with its rows.
///
/// Filters and order are SQL. A search becomes one `LIKE` per term on `search_text` (the lowercased text, which
/// the trigram index serves); `LIKE` compares characters exactly, but `search_text` lacks the NUL characters that
/// `text` cannot hold, so every row is a candidate that ``TextSearch`` checks, and the window is applied after.
/// Without a search, the window is SQL too.
struct PostgresQueryPlan {
    /// The statement.
    let statement: PostgresQuery
    /// The search to check each row against.
    let search: TextSearch
    /// Whether rows are checked against ``search`` and windowed here.
    let checksInSwift: Bool

    /// Plans a query, or with `counting` the count of its matches (one row, one column) when there is no search to
    /// check here.
    init(_ query: PostQuery, posts: String, counting: Bool = false) {
        search = TextSearch(query.search)
        checksInSwift = !search.isEmpty
        var sql =
            "SELECT \(counting && !checksInSwift ? "count(*)" : "id, user_id, title, body") FROM \(posts) WHERE true"
        var binds = PostgresBindings()
        func bind(_ value: some PostgresNonThrowingEncodable) -> String {
            binds.append(value)
            return "$\(binds.count)"
        }
        if let ids = query.ids { sql += " AND id = ANY(\(bind(Array(ids))))" }
        if let userIds = query.userIds { sql += " AND user_id = ANY(\(bind(Array(userIds))))" }
        for term in search.terms {
            // NUL is not in search_text, so it is not looked for there; an empty pattern is left out.
            let pattern = Self.likeEscaped(term)
            if !pattern.isEmpty { sql += " AND search_text LIKE \(bind("%" + pattern + "%"))" }
        }
        if counting && !checksInSwift {
            statement = PostgresQuery(unsafeSQL: sql, binds: binds)
            return
        }
        switch query.sort {
        case .idAscending: sql += " ORDER BY id"
        case .idDescending: sql += " ORDER BY id DESC"
        // bytea compares bytes: UTF-8's code-point order, whatever the database's collation.
        case .title: sql += " ORDER BY title, id"
        case .titleDescending: sql += " ORDER BY title DESC, id"
        case .user: sql += " ORDER BY user_id, id"
        case .userDescending: sql += " ORDER BY user_id DESC, id"
        }
        if !checksInSwift {
            if let limit = query.limit { sql += " LIMIT \(bind(limit))" }
            if query.offset > 0 { sql += " OFFSET \(bind(query.offset))" }
        }
        statement = PostgresQuery(unsafeSQL: sql, binds: binds)
    }

    /// A term as a `LIKE` pattern that matches it literally (`\`, `%` and `_` escaped with `\`), NUL left out.
    static func likeEscaped(_ term: String) -> String {
        var escaped = ""
        for character in term.unicodeScalars where character != "\0" {
            if character == "\\" || character == "%" || character == "_" { escaped.unicodeScalars.append("\\") }
            escaped.unicodeScalars.append(character)
        }
        return escaped
    }
}
