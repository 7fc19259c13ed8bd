import PostStore

/// Sends one HTTP request and returns the answer: the only door from PostStore to the network.
///
/// ``URLSessionHTTPClient`` is the live implementation and the only code in the library that touches `URLSession`.
/// ``HTTPPostDataService`` builds on this protocol, so tests hand it a stub that records requests and fails chosen
/// attempts.
///
/// Implementation requirements: return every answer the server gives, whatever its status (`304`, `404` and `500`
/// included), without following conditional-request or caching rules of its own; throw ``HTTPTransportError`` when
/// no answer came (connection refused or lost, timeout), when the body is longer than the request's
/// ``HTTPRequest/maximumBodyBytes`` (`responseTooLarge`, ideally before it is held whole) or a redirect is refused
/// (`redirectRefused`: never follow one from `https` to another scheme); throw `CancellationError` when the task
/// is cancelled.
public protocol HTTPClient: Sendable {
    /// Sends a request and waits for the whole answer.
    ///
    /// - Parameter request: The request.
    /// - Returns: The server's answer, whatever its status.
    /// - Throws: ``HTTPTransportError`` when no complete answer arrived.
    func send(_ request: HTTPRequest) async throws -> HTTPResponse
}
