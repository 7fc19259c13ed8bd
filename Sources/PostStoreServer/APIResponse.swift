import HTTPTypes

/// One response of the API: a status, header fields and the body's bytes, before the HTTP server adds what every
/// response carries (CORS, compression, `Date`).
struct APIResponse: Sendable {
    /// The status.
    var status: HTTPResponse.Status
    /// The header fields.
    var headers: HTTPFields
    /// The body.
    var body: [UInt8]
    /// A body sent as it is made, after the head, instead of ``body``: Server-Sent Events (``EventStream``). It is
    /// given what sends bytes, and returns when the stream ends.
    var stream: (@Sendable (_ send: ([UInt8]) async throws -> Void) async throws -> Void)?

    init(status: HTTPResponse.Status, headers: HTTPFields = HTTPFields(), body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A JSON response: the body with `Content-Type: application/json; charset=utf-8`.
    init(status: HTTPResponse.Status, headers: HTTPFields = HTTPFields(), json: [UInt8]) {
        self.init(status: status, headers: headers, body: json)
        self.headers[.contentType] = "application/json; charset=utf-8"
    }
}
