import PostStore
import Testing

@testable import PostStorePostgres

/// The SQL a query becomes (no server needed): patterns that match terms literally, everything in SQL.
@Suite struct PostgresQueryPlanTests {
    @Test func aSearchTermIsMatchedLiterally() {
        #expect(PostgresQueryPlan.likeEscaped("50%_a\\b") == "50\\%\\_a\\\\b")
    }

    @Test func filtersSearchOrderAndWindowAreAllSQL() {
        let plain = PostgresQueryPlan(PostQuery(userIds: [1], sort: .title, limit: 5, offset: 2), posts: "s.posts")
        let searched = PostgresQueryPlan(PostQuery(search: "a b", limit: 5, offset: 2), posts: "s.posts")

        #expect(plain.rows().sql.hasSuffix("ORDER BY title, id LIMIT $2 OFFSET $3"), "\(plain.rows().sql)")
        #expect(
            searched.rows().sql.contains("search_text LIKE $1 AND search_text LIKE $2"),
            "\(searched.rows().sql)"
        )
        #expect(searched.rows().sql.hasSuffix("LIMIT $3 OFFSET $4"), "\(searched.rows().sql)")
    }

    @Test func everyWindowIsTheSameSQLSoThatOnePreparedStatementServesThem() {
        let first = PostgresQueryPlan(PostQuery(userIds: [1], limit: 5), posts: "s.posts")
        let second = PostgresQueryPlan(PostQuery(userIds: [2], offset: 3), posts: "s.posts")
        #expect(first.rows().sql == second.rows().sql)
        #expect(first.rows().sql == second.rows(limitedTo: 256).sql)
        #expect(first.windowIsAtMost(5) && !first.windowIsAtMost(4) && !second.windowIsAtMost(1_000))
    }

    @Test func aTermWithANULMatchesNothing() {
        let plan = PostgresQueryPlan(PostQuery(search: "a\u{0}b c"), posts: "s.posts")
        #expect(plan.rows().sql.contains("AND false AND search_text LIKE $1"), "\(plan.rows().sql)")
    }

    @Test func aPageIsOneStatementOrderedByItsWindowsOrder() {
        let page = PostgresQueryPlan(PostQuery(userIds: [3], sort: .userDescending, limit: 10), posts: "s.posts")
            .page(storeRevision: "s.store_revision")
        #expect(page.sql.contains("FROM s.store_revision"), "\(page.sql)")
        #expect(page.sql.hasSuffix("ORDER BY p.user_id DESC, p.id"), "\(page.sql)")
    }
}
