import Foundation
import HTTPTypes
import Testing

@testable import PostStoreHTTP

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The live transport's mapping between swift-http-types and URLSession; the requests themselves are tested over
/// real HTTP in ``HTTPRedirectAndSizeTests`` and in PostStoreLiveTests' `HTTPIntegrationTests`.
@Suite struct URLSessionHTTPTransportTests {
    /// A weak ETag with a non-ASCII character: it must come back byte for byte as the server sent it.
    private static let etag = #"W/"café-1""#

    @Test func aRequestBecomesAURLRequestWithItsFieldsAndURLSessionsOwnTimeoutAWholeSecondAbove() throws {
        let url = try #require(URL(string: "https://example.com/api/posts?lang=en&_page=2&_limit=10"))
        let request = HTTPRequest(
            method: .get,
            url: url,
            headerFields: [.accept: "application/json", .ifNoneMatch: Self.etag]
        )

        let urlRequest = URLSessionHTTPTransport.urlRequest(
            for: request,
            url: try #require(request.url),
            timeout: .milliseconds(300)
        )

        #expect(urlRequest.url == url)
        #expect(urlRequest.httpMethod == "GET")
        #expect(urlRequest.value(forHTTPHeaderField: "Accept") == "application/json")
        #expect(urlRequest.value(forHTTPHeaderField: "if-none-match") == Self.etag)
        #expect(urlRequest.timeoutInterval == 2)
        #expect(urlRequest.cachePolicy == .reloadIgnoringLocalCacheData)
    }

    @Test(arguments: [
        "https://example.com/posts",
        "http://127.0.0.1:8080/posts?lang=en&_page=1&_limit=10",
        "http://127.0.0.1:8080/posts?q=%27%3B%20DROP%20TABLE%20posts%3B%20--&like=%25_&shell=%24(touch%20pwned)",
        "https://example.com/cursor?after=2",
    ])
    func aRequestKeepsItsURLAsWritten(_ address: String) throws {
        let url = try #require(URL(string: address))
        #expect(HTTPRequest(method: .get, url: url).url?.absoluteString == address)
    }

    @Test func aURLSessionResponseBecomesAResponseHead() throws {
        let url = try #require(URL(string: "https://example.com/posts"))
        let response = try #require(
            HTTPURLResponse(
                url: url,
                statusCode: 503,
                httpVersion: "HTTP/1.1",
                headerFields: ["Retry-After": "7", "ETag": Self.etag, "x-total-count": "3"]
            )
        )

        let head = try #require(URLSessionHTTPTransport.response(from: response))

        #expect(head.status == .serviceUnavailable)
        #expect(head.headerFields[.retryAfter] == "7")
        #expect(head.headerFields[.eTag] == Self.etag)
        #expect(head.headerFields.totalCount == 3)
    }
}
