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
