package import PostStore

extension SQLitePostStore: PostPageReading {
    /// `store_id` and `revision` of `store_revision` (migration 0007): one row read, no post.
    package nonisolated func revision() async throws -> String {
        try await read { tables in try tables.storedRevision() }
    }

    /// The revision, the count of the query's matches and its window from one read transaction.
    package nonisolated func page(_ query: PostQuery) async throws -> PostPage {
        try query.validate()
        return try await read { tables in try tables.page(query) }
    }
}

extension SQLitePostTables {
    /// The revision, the count of the query's matches and its window from one read transaction.
    func page(_ query: PostQuery) throws -> PostPage {
        let searches = keepsSearchIndex && SQLiteSearchIndex.matchExpression(for: TextSearch(query.search).terms) != nil
        do {
            return try connection.readTransaction {
                try page(query, usingSearchIndex: searches && searchIndex.isCurrent())
            }
        } catch let error as SQLiteError where searches && error.isCorruptVirtualTable {
            // As `query`: the posts alone still give the right answer.
            return try connection.readTransaction { try page(query, usingSearchIndex: false) }
        }
    }

    private func page(_ query: PostQuery, usingSearchIndex: Bool) throws(SQLiteError) -> PostPage {
        let posts = try run(SQLiteQueryPlan(query, usingSearchIndex: usingSearchIndex))
        var total = PostPage.totalOfPartialWindow(posts, of: query)
        if total == nil {
            total = try withBound(SQLiteQueryPlan(query, usingSearchIndex: usingSearchIndex, counting: true)) {
                statement throws(SQLiteError) in
                _ = try statement.step()
                return statement.int(at: 0)
            }
        }
        return PostPage(posts: posts, total: total ?? 0, revision: try storedRevision())
    }

    /// Counts a write that changed posts, inside its transaction.
    func countRevision() throws(SQLiteError) {
        try connection.execute(
            "UPDATE store_revision SET revision = revision + 1"
        )
    }

    func storedRevision() throws(SQLiteError) -> String {
        try connection.withStatement(
            "SELECT store_id || '-' || revision FROM store_revision"
        ) { statement throws(SQLiteError) in
            try statement.rows { $0.text(at: 0) }.joined()
        }
    }
}
