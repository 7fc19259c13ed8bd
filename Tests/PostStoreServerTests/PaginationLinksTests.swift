import Testing

@testable import PostStoreServer

/// The `Link` header as json-server sends it.
@Suite struct PaginationLinksTests {
    private let request = APIRequest(method: .get, path: "/posts", query: "_page=2&_limit=10&q=a", origin: "http://h:3")

    @Test func aMiddlePageLinksAllFour() {
        #expect(
            PaginationLinks.header(page: 2, size: 10, total: 35, request: request)
                == """
                <http://h:3/posts?_page=1&_limit=10&q=a>; rel="first", <http://h:3/posts?_page=1&_limit=10&q=a>; \
                rel="prev", <http://h:3/posts?_page=3&_limit=10&q=a>; rel="next", \
                <http://h:3/posts?_page=4&_limit=10&q=a>; rel="last"
                """
        )
    }

    @Test func theFirstAndLastPagesLackPrevAndNext() {
        let first = PaginationLinks.header(page: 1, size: 10, total: 35, request: request) ?? ""
        #expect(first.contains("rel=\"first\"") && !first.contains("rel=\"prev\"") && first.contains("rel=\"next\""))
        let last = PaginationLinks.header(page: 4, size: 10, total: 35, request: request) ?? ""
        #expect(
            last.contains("rel=\"prev\"") && !last.contains("rel=\"next\"")
                && last.hasSuffix("_page=4&_limit=10&q=a>; rel=\"last\"")
        )
    }

    @Test func onePageOfEverythingOrAPagePastTheEndHasNone() {
        #expect(PaginationLinks.header(page: 1, size: 10, total: 10, request: request) == nil)
        #expect(PaginationLinks.header(page: 5, size: 10, total: 35, request: request) == nil)
        #expect(PaginationLinks.header(page: 1, size: 10, total: 0, request: request) == nil)
        #expect(PaginationLinks.header(page: 2, size: 0, total: 35, request: request) == nil)
    }
}
