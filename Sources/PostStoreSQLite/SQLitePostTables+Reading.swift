import PostStore

extension SQLitePostTables {
    /// The posts a query selects; a search goes through the index when the store keeps it and it is current.
    func query(_ query: PostQuery) throws -> [Post] {
        guard keepsSearchIndex, SQLiteSearchIndex.matchExpression(for: TextSearch(query.search).terms) != nil
        else { return try run(SQLiteQueryPlan(query, usingSearchIndex: false)) }
        do {
            // The index's state and the query must come from one snapshot.
            return try connection.readTransaction {
                try run(SQLiteQueryPlan(query, usingSearchIndex: searchIndex.isCurrent()))
            }
        } catch let error as SQLiteError where error.isCorruptVirtualTable {
            // The index disagrees with the posts (see `SQLitePostStore.write`); the posts alone still give the right
            // answer.
            return try run(SQLiteQueryPlan(query, usingSearchIndex: false))
        }
    }

    func storedCount() throws(SQLiteError) -> Int {
        try connection.withStatement("SELECT count(*) FROM posts") { statement throws(SQLiteError) in
            _ = try statement.step()
            return statement.int(at: 0)
        }
    }

    func run(_ plan: SQLiteQueryPlan) throws(SQLiteError) -> [Post] {
        try withBound(plan) { statement throws(SQLiteError) in try statement.rows(Self.readPost) }
    }

    /// Runs `body` with the plan's statement, its arguments bound.
    func withBound<Result>(
        _ plan: SQLiteQueryPlan,
        _ body: (SQLiteStatement) throws(SQLiteError) -> Result
    ) throws(SQLiteError) -> Result {
        try connection.withStatement(plan.sql) { statement throws(SQLiteError) in
            for (offset, value) in plan.arguments.enumerated() {
                try value.bind(to: statement, at: Int32(offset + 1))
            }
            return try body(statement)
        }
    }

    func storedPost(id: Int) throws(SQLiteError) -> Post? {
        try connection.withStatement("SELECT id, user_id, title, body FROM posts WHERE id = ?") {
            statement throws(SQLiteError) in
            try statement.bind(id, at: 1)
            return try statement.step() ? Self.readPost(statement) : nil
        }
    }

    static func readPost(_ row: SQLiteStatement) -> Post {
        Post(userId: row.int(at: 1), id: row.int(at: 0), title: row.text(at: 2), body: row.text(at: 3))
    }
}
