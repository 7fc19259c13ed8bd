import PostStore
import Testing

@testable import PostStoreServer

/// json-server's list parameters become the store's query; every bad one is a 400 naming it.
@Suite struct PostListRequestTests {
    private func request(
        _ query: String,
        user: Int? = nil,
        maximumLimit: Int = 1000
    ) throws(APIError) -> PostListRequest {
        try PostListRequest(QueryParameters(query), userOfPath: user, maximumLimit: maximumLimit)
    }

    private func refusal(_ query: String, user: Int? = nil) -> String? {
        do {
            _ = try request(query, user: user)
            return nil
        } catch {
            #expect(error.status == .badRequest)
            return error.message
        }
    }

    @Test func noParametersIsEveryPostInIdOrderWithoutAWindow() throws {
        let list = try request("")
        #expect(list.query == PostQuery())
        #expect(!list.isWindowed && list.page == nil)
    }

    @Test func filtersRepeatAsOrWithinAFieldAndAndAcrossFields() throws {
        let list = try request("id=1&id=2&userId=3&q=dolor+sit")
        #expect(list.query.ids == [1, 2] && list.query.userIds == [3] && list.query.search == "dolor sit")
    }

    @Test func fieldFiltersAreCollectedInOrderBesideTheStoresQuery() throws {
        let list = try request("title_like=qui&userId=2&id_gte=3&id_gte=5&body=b&id_like=1")
        #expect(list.query.userIds == [2] && list.query.ids == nil)
        #expect(
            list.filters == [
                try #require(try FieldFilter(name: "title_like", values: ["qui"])),
                try #require(try FieldFilter(name: "id_gte", values: ["3", "5"])),
                try #require(try FieldFilter(name: "body", values: ["b"])),
                try #require(try FieldFilter(name: "id_like", values: ["1"])),
            ]
        )
    }

    @Test func theNestedRouteIntersectsItsUserWithTheParameter() throws {
        #expect(try request("", user: 4).query.userIds == [4])
        #expect(try request("userId=4&userId=5", user: 4).query.userIds == [4])
        #expect(try request("userId=5", user: 4).query.userIds == [])
    }

    @Test(arguments: [
        ("_sort=id", PostQuery.Sort.idAscending), ("_sort=-id", .idDescending), ("_sort=id&_order=desc", .idDescending),
        ("_sort=userId", .user), ("_sort=-userId", .userDescending), ("_sort=title&_order=DESC", .titleDescending),
        ("_sort=title", .title), ("_order=desc", .idDescending), ("_sort=-title&_order=desc", .titleDescending),
    ])
    func sorts(query: String, sort: PostQuery.Sort) throws {
        #expect(try request(query).query.sort == sort)
    }

    @Test func pagesAreTenPostsUnlessALimitIsGiven() throws {
        let third = try request("_page=3")
        #expect(third.query.limit == 10 && third.query.offset == 20 && third.page == 3 && third.isWindowed)
        let sized = try request("_page=2&_limit=7")
        #expect(sized.query.limit == 7 && sized.query.offset == 7)
    }

    @Test func theDefaultPageIsNoLargerThanTheMaximumLimit() throws {
        #expect(try request("_page=1", maximumLimit: 5).query.limit == 5)
    }

    @Test func slicesTakeStartWithEndOrLimit() throws {
        let ended = try request("_start=5&_end=8")
        #expect(ended.query.offset == 5 && ended.query.limit == 3 && ended.isWindowed && ended.page == nil)
        let limited = try request("_start=5&_limit=2")
        #expect(limited.query.offset == 5 && limited.query.limit == 2)
        let started = try request("_start=5")
        #expect(started.query.offset == 5 && started.query.limit == nil && !started.isWindowed)
        #expect(try request("_start=9&_end=3").query.limit == 0)
        #expect(try request("_page=3&_limit=0").query.limit == 0)
        #expect(try request("_=1712345").query == PostQuery())
    }

    @Test(arguments: [
        ("foo=1", "Unknown parameter foo"), ("title_eq=x", "Unknown parameter title_eq"),
        ("id_gte=x", "id_gte must be a whole number"), ("id_gte=99999999999999999999", "id_gte is out of range"),
        ("id=--5", "id must be a whole number"), ("userId_ne=1.5", "userId_ne must be a whole number"),
        ("_like=x", "Unknown parameter _like"), ("_embed=comments", "_embed is not supported"),
        ("id=x", "id must be a whole number (got \"x\")"), ("userId=1.5", "userId must be a whole number"),
        ("_page=0", "_page must be 1 or more"), ("_limit=-1", "_limit must be from 0 to 1000"),
        ("_limit=1001", "_limit must be from 0 to 1000"), ("_page=1&_limit=abc", "_limit must be a whole number"),
        ("_sort=body", "_sort must be id, userId or title"), ("_order=up", "_order must be asc or desc"),
        ("_sort=-id&_order=asc", "is descending but _order=asc"), ("q=a&q=b", "q is given 2 times"),
        ("_page=2&_start=3", "_page does not combine"), ("_start=1&_end=5&_limit=2", "not both"),
        ("_start=0&_end=5000", "at most 1000 at once"), ("q=%zz", "bad escape"), ("q=%ff", "not UTF-8"),
        ("_page=\(Int.max)&_limit=10", "past any store's end"),
    ])
    func badParametersAreRefusedByName(query: String, expected: String) {
        let message = refusal(query)
        #expect(message?.contains(expected) == true, "\(message ?? "accepted")")
    }
}
