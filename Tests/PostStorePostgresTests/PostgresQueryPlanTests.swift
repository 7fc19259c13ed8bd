import PostStore
import Testing

@testable import PostStorePostgres

/// The SQL a query becomes (no server needed): what is left to Swift, and patterns that match terms literally.
@Suite struct PostgresQueryPlanTests {
    @Test func aSearchTermIsMatchedLiterallyWithoutItsNULs() {
        #expect(PostgresQueryPlan.likeEscaped("50%_a\\b\0c") == "50\\%\\_a\\\\bc")
        #expect(PostgresQueryPlan.likeEscaped("\0") == "")
    }

    @Test func aSearchIsCheckedAndWindowedInSwiftAndNothingElseIs() {
        let plain = PostgresQueryPlan(PostQuery(userIds: [1], sort: .title, limit: 5, offset: 2), posts: "s.posts")
        let searched = PostgresQueryPlan(PostQuery(search: "a b", limit: 5, offset: 2), posts: "s.posts")

        #expect(!plain.checksInSwift)
        #expect(plain.statement.sql.hasSuffix("ORDER BY title, id LIMIT $2 OFFSET $3"), "\(plain.statement.sql)")
        #expect(searched.checksInSwift)
        #expect(
            searched.statement.sql.contains("search_text LIKE $1 AND search_text LIKE $2"),
            "\(searched.statement.sql)"
        )
        #expect(!searched.statement.sql.contains("LIMIT"), "the window applies after the exact check")
    }
}
