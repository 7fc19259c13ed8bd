/// A ``PostQuery`` translated to one SQL statement and its arguments.
///
/// Filters become `IN (SELECT value FROM json_each(?))` over a bound JSON array. The search text is bound as it is
/// and decided by ``SQLiteSearchFunction`` with ``TextSearch``, the code every engine uses; before that, the
/// trigrams of its terms narrow the candidates through one FTS5 `MATCH` on the search index (see
/// ``SQLiteSearchIndex``). The order and window are SQL's `ORDER BY … LIMIT … OFFSET`. The SQL text depends only on
/// the query's shape, never on its values, so statements are cached and no value is spliced into SQL.
struct SQLiteQueryPlan {
    /// The SQL text.
    let sql: String

    /// The values for its parameters, in order.
    let arguments: [any SQLiteBindable]

    /// Plans a query.
    ///
    /// - Parameters:
    ///   - query: The query.
    ///   - usingSearchIndex: Whether the search index is current and may narrow the candidates.
    init(_ query: PostQuery, usingSearchIndex: Bool) {
        var conditions: [String] = []
        var arguments: [any SQLiteBindable] = []
        if let ids = query.ids {
            conditions.append("id IN (SELECT value FROM json_each(?))")
            arguments.append(Self.jsonArray(ids))
        }
        if let userIds = query.userIds {
            conditions.append("user_id IN (SELECT value FROM json_each(?))")
            arguments.append(Self.jsonArray(userIds))
        }
        let terms = TextSearch(query.search).terms
        if usingSearchIndex, let match = SQLiteSearchIndex.matchExpression(for: terms) {
            conditions.append("id IN (SELECT rowid FROM posts_search WHERE posts_search MATCH ?)")
            arguments.append(match)
        }
        if !terms.isEmpty {
            conditions.append("\(SQLiteSearchFunction.matchesName)(title, body, ?)")
            arguments.append(query.search)
        }
        let order =
            switch query.sort {
            case .idAscending: "id"
            case .idDescending: "id DESC"
            case .title: "title, id"
            case .user: "user_id, id"
            }
        let filter = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
        sql = "SELECT id, user_id, title, body FROM posts\(filter) ORDER BY \(order) LIMIT ? OFFSET ?"
        arguments.append(query.limit ?? -1)
        arguments.append(query.offset)
        self.arguments = arguments
    }

    private static func jsonArray(_ values: Set<Int>) -> String {
        "[" + values.map(String.init).joined(separator: ",") + "]"
    }
}
