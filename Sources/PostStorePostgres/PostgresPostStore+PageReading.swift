package import PostStore
import PostgresNIO

extension PostgresPostStore: PostPageReading {
    /// `store_id` and `revision` of the store's `store_revision` row (migration 0004): one row read, no post.
    package func revision() async throws -> String {
        try await read { session in try await storedRevision(in: session) }
    }

    /// The revision, the count of the query's matches and its window from one statement, so from one snapshot and
    /// in one round trip (`PostgresQueryPlan.page(storeRevision:)`): prepared when there is no search and the
    /// window holds at most `PostgresSession.boundedRowCount` posts (a server's pages), streamed otherwise.
    package func page(_ query: PostQuery) async throws -> PostPage {
        try query.validate()
        if query.ids?.isEmpty == true || query.userIds?.isEmpty == true {
            return PostPage(posts: [], total: 0, revision: try await revision())
        }
        let plan = PostgresQueryPlan(query, posts: names.posts)
        let statement = plan.page(storeRevision: names.storeRevision)
        return try await read { session in
            let rows = PostgresCollectedRows<(revision: String, total: Int, post: Post?)>()
            if !plan.searches, plan.windowIsAtMost(PostgresSession.boundedRowCount) {
                for row in try await session.preparedRows(statement) { rows.append(try Self.pageRow(row)) }
            } else {
                try await session.forEachRow(statement) { row in rows.append(try Self.pageRow(row)) }
            }
            let all = rows.all
            guard let first = all.first else { throw PostgresSessionError.noRow }
            return PostPage(posts: all.compactMap(\.post), total: first.total, revision: first.revision)
        }
    }

    /// A row of a page: the revision, the total and a post, or no post for an empty window.
    private static func pageRow(_ row: PostgresRow) throws -> (revision: String, total: Int, post: Post?) {
        let (revision, total, id, userId, title, body) = try row.decode(
            (String, Int, Int?, Int?, String?, String?).self
        )
        return (revision, total, id.map { Post(userId: userId ?? 0, id: $0, title: title ?? "", body: body ?? "") })
    }

    /// The revision as text: the store's id and its count of writes that changed posts.
    static let revisionExpression = "store_id || '-' || revision"

    /// Counts a write that changed posts, inside its transaction.
    func countRevision(in session: PostgresSession) async throws {
        try await session.execute("UPDATE \(unescaped: names.storeRevision) SET revision = revision + 1")
    }

    private func storedRevision(in session: PostgresSession) async throws -> String {
        let rows = try await session.preparedRows(
            "SELECT \(unescaped: Self.revisionExpression) FROM \(unescaped: names.storeRevision)"
        )
        guard let row = rows.first else { throw PostgresSessionError.noRow }
        return try row.decode(String.self)
    }
}
