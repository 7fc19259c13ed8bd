import HTTPTypes
import PostStore

/// A request the API refuses, or a failure it reports: a status and one line for the client, sent as
/// `{"error": "…"}`.
struct APIError: Error, Sendable {
    /// The response's status.
    let status: HTTPResponse.Status
    /// What is wrong, on one line.
    let message: String
    /// Headers the answer carries besides the body's (`Allow` with a 405).
    var headers = HTTPFields()

    init(_ status: HTTPResponse.Status, _ message: String, headers: HTTPFields = HTTPFields()) {
        self.status = status
        self.message = message
        self.headers = headers
    }

    /// A `400 Bad Request`.
    static func badRequest(_ message: String) -> APIError { APIError(.badRequest, message) }

    /// The answer to a store's error: the store's state is the server's problem, not the request's, except for a
    /// write the store refuses.
    static func store(_ error: PostStoreError) -> APIError {
        switch error.code {
        case .invalidData, .constraintViolation, .invalidQuery, .invalidArgument:
            APIError(.badRequest, error.message)
        case .storeBusy, .storeUnavailable:
            APIError(.serviceUnavailable, error.message)
        case .postChanged:
            // Another process wrote the post between each of five reads and the write that followed it.
            APIError(.conflict, "\(error.message) Other writers kept changing it; try again.")
        case .storeNotFound:
            // The file served was deleted or moved: this server cannot serve it until it opens what is there now.
            APIError(.serviceUnavailable, "\(error.message) Restart the server to serve the store now at that place.")
        default:
            APIError(.internalServerError, "The store failed: \(error.message)")
        }
    }

    /// The response: the status, `{"error": message}` and the headers.
    var response: APIResponse {
        var writer = JSONWriter()
        writer.raw("{")
        writer.key("error")
        writer.string(message)
        writer.raw("}")
        return APIResponse(status: status, headers: headers, json: writer.bytes)
    }
}
