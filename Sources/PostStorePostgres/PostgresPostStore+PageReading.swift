package import PostStore
import PostgresNIO

extension PostgresPostStore: PostPageReading {
    /// `store_id` and `revision` of the store's `store_revision` row (migration 0004): one row read, no post.
    package func revision() async throws -> String {
        try await read { session in try await storedRevision(in: session) }
    }

    /// The revision, the count of the query's matches and its window from one snapshot (a repeatable-read
    /// transaction). Without a search the count is one more statement; with one, every candidate is checked
    /// here anyway, so the count is of those that pass.
    package func page(_ query: PostQuery) async throws -> PostPage {
        try query.validate()
        return try await read { session in
            try await session.snapshot { session in
                let revision = try await storedRevision(in: session)
                if query.ids?.isEmpty == true || query.userIds?.isEmpty == true {
                    return PostPage(posts: [], total: 0, revision: revision)
                }
                let plan = PostgresQueryPlan(query, posts: names.posts)
                let answer = PostgresAnswer(plan: plan, query: query)
                try await session.forEachRow(plan.statement) { row in try answer.take(Self.post(in: row)) }
                let posts = answer.posts
                let total =
                    if plan.checksInSwift {
                        answer.matched
                    } else if let total = PostPage.totalOfPartialWindow(posts, of: query) {
                        total
                    } else {
                        try await session.value(
                            PostgresQueryPlan(query, posts: names.posts, counting: true).statement,
                            as: Int.self
                        )
                    }
                return PostPage(posts: posts, total: total, revision: revision)
            }
        }
    }

    /// Counts a write that changed posts, inside its transaction.
    func countRevision(in session: PostgresSession) async throws {
        try await session.execute("UPDATE \(unescaped: names.storeRevision) SET revision = revision + 1")
    }

    private func storedRevision(in session: PostgresSession) async throws -> String {
        try await session.value(
            "SELECT store_id || '-' || revision FROM \(unescaped: names.storeRevision)",
            as: String.self
        )
    }
}
