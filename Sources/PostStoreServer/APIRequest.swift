import HTTPTypes

/// One request as the API sees it: what the HTTP server read, with the body already collected within its limit.
struct APIRequest: Sendable {
    /// The method.
    var method: HTTPRequest.Method
    /// The path, percent-encoded as sent (`/posts/1`).
    var path: String
    /// The query as sent, without the `?`; `nil` when the target has none.
    var query: String?
    /// The header fields.
    var headers: HTTPFields
    /// The body; empty when there is none.
    var body: [UInt8]
    /// `http://HOST[:PORT]` as the client addressed the server (its `Host` header), for the `Link` header's URLs.
    var origin: String

    init(
        method: HTTPRequest.Method,
        path: String,
        query: String? = nil,
        headers: HTTPFields = HTTPFields(),
        body: [UInt8] = [],
        origin: String = "http://127.0.0.1"
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.origin = origin
    }

    /// The path and query as sent: `/posts?_page=2`.
    var target: String { query.map { "\(path)?\($0)" } ?? path }
}
