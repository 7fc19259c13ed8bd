import PostStore

/// A ``PostQuery`` translated to one SQL statement and its arguments.
///
/// Filters become `IN (SELECT value FROM json_each(?))` over a bound JSON array, or `= ?` for one value. The search text is bound as it is
/// and decided by ``SQLiteSearchFunction`` with ``TextSearch``, the code every engine uses; before that, the
/// trigrams of its terms narrow the candidates through one FTS5 `MATCH` on the search index (see
/// ``SQLiteSearchIndex``), joined to the posts by id. The order and window are SQL's `ORDER BY … LIMIT … OFFSET`.
/// The SQL text depends only on the query's shape, never on its values, so statements are cached and no value is
/// spliced into SQL.
struct SQLiteQueryPlan {
    /// The SQL text.
    let sql: String

    /// The values for its parameters, in order.
    let arguments: [any SQLiteBindable]

    /// Plans a query, or the count of its matches.
    ///
    /// - Parameters:
    ///   - query: The query.
    ///   - usingSearchIndex: Whether the search index is current and may narrow the candidates.
    ///   - counting: Whether the statement counts every match (one row, one column) instead of returning the window.
    init(_ query: PostQuery, usingSearchIndex: Bool, counting: Bool = false) {
        var conditions: [String] = []
        var arguments: [any SQLiteBindable] = []
        let terms = TextSearch(query.search).terms
        let match = usingSearchIndex ? SQLiteSearchIndex.matchExpression(for: terms) : nil
        if let match {
            conditions.append("posts_search MATCH ?")
            arguments.append(match)
        }
        // One value is compared as it is (a lookup by id, a user's posts: what a server asks most), several go
        // through one JSON array.
        for (column, values) in [("posts.id", query.ids), ("posts.user_id", query.userIds)] {
            guard let values else { continue }
            if values.count == 1, let value = values.first {
                conditions.append("\(column) = ?")
                arguments.append(value)
            } else {
                conditions.append("\(column) IN (SELECT value FROM json_each(?))")
                arguments.append(Self.jsonArray(values))
            }
        }
        if !terms.isEmpty {
            conditions.append("\(SQLiteSearchFunction.matchesName)(posts.title, posts.body, ?)")
            arguments.append(query.search)
        }
        // With the index, the candidates come from FTS5 in rowid (= id) order, so a query in id order reads them
        // in order and stops at its limit: the first page of a common term costs a few rows, not every match.
        let id = match == nil ? "posts.id" : "posts_search.rowid"
        let order =
            switch query.sort {
            case .idAscending: id
            case .idDescending: "\(id) DESC"
            case .title: "posts.title, posts.id"
            case .titleDescending: "posts.title DESC, posts.id"
            case .user: "posts.user_id, posts.id"
            case .userDescending: "posts.user_id DESC, posts.id"
            }
        let source = match == nil ? "posts" : "posts_search JOIN posts ON posts.id = posts_search.rowid"
        let filter = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
        if counting {
            sql = "SELECT count(*) FROM \(source)\(filter)"
            self.arguments = arguments
            return
        }
        sql = """
            SELECT posts.id, posts.user_id, posts.title, posts.body FROM \(source)\(filter) \
            ORDER BY \(order) LIMIT ? OFFSET ?
            """
        arguments.append(query.limit ?? -1)
        arguments.append(query.offset)
        self.arguments = arguments
    }

    private static func jsonArray(_ values: Set<Int>) -> String {
        "[" + values.map(String.init).joined(separator: ",") + "]"
    }
}
