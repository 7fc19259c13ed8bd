public import PostStore

extension SQLitePostStore {
    public func post(id: Int) throws -> Post? {
        try read { try storedPost(id: id) }
    }

    public func query(_ query: PostQuery) throws -> [Post] {
        try query.validate()
        return try read {
            guard keepsSearchIndex, SQLiteSearchIndex.matchExpression(for: TextSearch(query.search).terms) != nil
            else { return try run(SQLiteQueryPlan(query, usingSearchIndex: false)) }
            do {
                // The index's state and the query must come from one snapshot.
                return try connection.readTransaction {
                    try run(SQLiteQueryPlan(query, usingSearchIndex: searchIndex.isCurrent()))
                }
            } catch let error as SQLiteError where error.isCorruptVirtualTable {
                // The index disagrees with the posts (see `write`); the posts alone still give the right answer.
                return try run(SQLiteQueryPlan(query, usingSearchIndex: false))
            }
        }
    }

    public func count() throws -> Int {
        try read { try storedCount() }
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
