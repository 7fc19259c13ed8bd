import Foundation
import HTTPTypes
import Testing

@testable import PostStoreHTTP

@Suite("HTTP headers")
struct HTTPHeadersTests {
    private static let base = URL(string: "http://localhost:3000/api/posts?_page=2&_limit=10")!

    private static func links(_ value: String) -> [String: String] {
        LinkHeader(value, relativeTo: base).links.mapValues(\.absoluteString)
    }

    // MARK: Link

    @Test("json-server's Link header gives first, prev, next and last")
    func jsonServerLinks() {
        let value = """
            <http://localhost:3000/posts?_page=1&_limit=10>; rel="first", \
            <http://localhost:3000/posts?_page=1&_limit=10>; rel="prev", \
            <http://localhost:3000/posts?_page=3&_limit=10>; rel="next", \
            <http://localhost:3000/posts?_page=10&_limit=10>; rel="last"
            """
        #expect(
            Self.links(value) == [
                "first": "http://localhost:3000/posts?_page=1&_limit=10",
                "prev": "http://localhost:3000/posts?_page=1&_limit=10",
                "next": "http://localhost:3000/posts?_page=3&_limit=10",
                "last": "http://localhost:3000/posts?_page=10&_limit=10",
            ]
        )
        #expect(
            LinkHeader(value, relativeTo: Self.base).next?.absoluteString
                == "http://localhost:3000/posts?_page=3&_limit=10"
        )
    }

    static let singleLinks: [(name: String, value: String, next: String?)] = [
        ("absolute-path target", #"</posts?_page=3>; rel="next""#, "http://localhost:3000/posts?_page=3"),
        ("relative target", #"<posts?_page=3>; rel="next""#, "http://localhost:3000/api/posts?_page=3"),
        ("query-only target", #"<?_page=3>; rel="next""#, "http://localhost:3000/api/posts?_page=3"),
        ("several relation types", #"<http://h/p3>; rel="last next""#, "http://h/p3"),
        ("unquoted, spaced, capitalized", "<http://h/p3> ; REL = Next", "http://h/p3"),
        (
            "commas inside the target", #"<http://h/posts?ids=1,2,3>; rel="next", <http://h/p9>; rel="last""#,
            "http://h/posts?ids=1,2,3"
        ),
        (
            "commas and semicolons in a quoted parameter", #"<http://h/p3>; title="a, b; <c>"; rel="next""#,
            "http://h/p3"
        ),
        ("the first of two next links", #"<http://h/a>; rel="next", <http://h/b>; rel="next""#, "http://h/a"),
        (
            "garbage parts skipped", #"garbage, ;rel="prev", <http://h/x>, rel="next", <http://h/p3>; rel="next""#,
            "http://h/p3"
        ),
        ("no next", #"<http://h/p1>; rel="prev", <http://h/p9>; rel="last""#, nil),
        ("no rel", "<http://h/p3>; title=next", nil),
        ("empty", "", nil),
    ]

    @Test("the next link is found, resolved against the request's URL", arguments: singleLinks)
    func nextLink(link: (name: String, value: String, next: String?)) {
        #expect(LinkHeader(link.value, relativeTo: Self.base).next?.absoluteString == link.next)
    }

    @Test("several relation types in one rel map each to the target")
    func severalRelationTypes() {
        #expect(Self.links(#"<http://h/p3>; rel="next last""#) == ["next": "http://h/p3", "last": "http://h/p3"])
    }

    // MARK: Retry-After

    /// `Sun, 06 Nov 1994 08:49:37 GMT`, the RFC's example date.
    private static let now = Date(timeIntervalSince1970: 784_111_777)

    static let retryAfters: [(value: String, wait: Duration?)] = [
        ("120", .seconds(120)),
        (" 7 ", .seconds(7)),
        ("0", .zero),
        ("-5", .zero),
        ("Sun, 06 Nov 1994 08:50:07 GMT", .seconds(30)),
        ("Sun, 06 Nov 1994 08:49:37 GMT", .zero),
        ("Sun, 06 Nov 1994 08:00:00 GMT", .zero),
        ("soon", nil),
        ("1.5", nil),
        ("", nil),
    ]

    @Test("Retry-After in seconds or as an HTTP date becomes a wait", arguments: retryAfters)
    func retryAfter(value: String, wait: Duration?) {
        let fields: HTTPFields = [.retryAfter: value]
        #expect(fields.retryAfter(now: Self.now) == wait)
    }

    @Test("a date a fraction of a second away rounds up to the millisecond; no header, no wait")
    func retryAfterEdges() {
        let fields: HTTPFields = [HTTPField.Name("retry-after")!: "Sun, 06 Nov 1994 08:49:38 GMT"]
        #expect(fields.retryAfter(now: Self.now.addingTimeInterval(0.2504)) == .milliseconds(750))
        #expect(HTTPFields().retryAfter(now: Self.now) == nil)
    }

    // MARK: Other headers

    @Test("header names match in any case, ours included")
    func caseInsensitiveLookup() throws {
        let fields: HTTPFields = [
            try #require(HTTPField.Name("x-total-count")): "100", try #require(HTTPField.Name("ETAG")): #""abc""#,
            try #require(HTTPField.Name("link")): "<http://h/p3>; rel=\"next\"",
        ]
        #expect(fields[.xTotalCount] == "100")
        #expect(fields[try #require(HTTPField.Name("X-TOTAL-COUNT"))] == "100")
        #expect(fields[.eTag] == #""abc""#)
        #expect(fields.links(relativeTo: Self.base)?.next?.absoluteString == "http://h/p3")
        #expect(HTTPFields().links(relativeTo: Self.base) == nil)
    }

    @Test(
        "X-Total-Count is read as a number",
        arguments: [("100", 100), (" 42 ", 42), ("0", 0), ("many", nil), ("", nil)]
    )
    func totalCount(value: String, count: Int?) {
        let fields: HTTPFields = [.xTotalCount: value]
        #expect(fields.totalCount == count)
    }

    @Test("no X-Total-Count, no total")
    func noTotalCount() {
        #expect(HTTPFields().totalCount == nil)
    }

    @Test(
        "the status is described with its reason when known",
        arguments: [(404, "404 Not Found"), (503, "503 Service Unavailable"), (418, "418")]
    )
    func statusDescription(statusCode: Int, description: String) {
        #expect(HTTPResponse.Status(code: statusCode).codeAndReason == description)
    }

    @Test("a reason the server sent is kept")
    func statusDescriptionWithTheServersReason() {
        #expect(HTTPResponse.Status(code: 599, reasonPhrase: "Network Timeout").codeAndReason == "599 Network Timeout")
    }

    // MARK: Body excerpt

    static let excerpts: [(name: String, body: [UInt8], excerpt: String?)] = [
        ("short text", Array("Not found".utf8), "Not found"),
        ("lines joined, ends trimmed", Array("  {\"error\":\r\n\"busy\"}\n".utf8), #"{"error": "busy"}"#),
        (
            "long text truncated", Array(String(repeating: "x", count: 161).utf8),
            String(repeating: "x", count: 160) + "…"
        ),
        (
            "exactly 160 bytes kept whole", Array(String(repeating: "x", count: 160).utf8),
            String(repeating: "x", count: 160)
        ),
        ("empty", [], nil),
        ("whitespace only", Array(" \n\t\r\n".utf8), nil),
        ("binary", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00], nil),
    ]

    @Test("the body excerpt is short text, or nil", arguments: excerpts)
    func bodyExcerpt(example: (name: String, body: [UInt8], excerpt: String?)) {
        #expect(Data(example.body).bodyExcerpt == example.excerpt)
    }

    /// 1 + 3 × 100 bytes: the 160-byte cut falls inside a three-byte character.
    @Test("a long non-ASCII body is truncated at a character boundary, not dropped")
    func bodyExcerptOfLongNonASCIIText() throws {
        let body = "a" + String(repeating: "한", count: 100)
        let excerpt = try #require(Data(body.utf8).bodyExcerpt)
        #expect(excerpt.hasPrefix("a한한"))
        #expect(excerpt.hasSuffix("한…"))
    }
}
