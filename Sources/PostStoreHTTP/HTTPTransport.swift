package import Foundation
package import HTTPTypes

/// Sends one HTTP request and returns the answer: the only door from PostStore to the network.
///
/// Requests and response heads are swift-http-types' `HTTPRequest` and `HTTPResponse` (the currency types that
/// URLSession, AsyncHTTPClient and Hummingbird speak); the body comes beside the head as bytes, since a data
/// service needs all of it. ``URLSessionHTTPTransport`` is the live implementation and the only code in the library
/// that touches `URLSession`; ``HTTPPostDataService`` builds on this protocol, so its tests hand it a stub that
/// records requests and fails chosen attempts.
///
/// The seam is `package`, not public: an embedder fakes the network by injecting a `PostDataService` (for example
/// `StubPostDataService`), not a transport, so the protocol can change with the data service.
///
/// Implementation requirements: return every answer the server gives, whatever its status (`304`, `404` and `500`
/// included), without following conditional-request or caching rules of its own; throw ``HTTPTransportError`` when
/// no answer came (connection refused or lost, timeout), when the body is longer than `maximumBodyBytes`
/// (`responseTooLarge`, ideally before it is held whole) or a redirect is refused (`redirectRefused`: never follow
/// one from `https` to another scheme); throw `CancellationError` when the task is cancelled.
package protocol HTTPTransport: Sendable {
    /// Sends a request and waits for the whole answer.
    ///
    /// - Parameters:
    ///   - request: The request, with an absolute `http` or `https` URL.
    ///   - timeout: How long to wait for the whole answer before giving up with ``HTTPTransportError/Kind/timedOut``.
    ///   - maximumBodyBytes: The most bytes of body to accept: a longer answer fails with
    ///     ``HTTPTransportError/Kind/responseTooLarge`` as soon as it is known to be longer.
    ///   - receiving: Told, as the body arrives, how many bytes of it have arrived and how many the answer announced
    ///     (`Content-Length`), for a progress display.
    /// - Returns: The response head (status and header fields) and the body.
    /// - Throws: ``HTTPTransportError`` when no complete answer arrived.
    func send(
        _ request: HTTPRequest,
        timeout: Duration,
        maximumBodyBytes: Int,
        receiving: @escaping @Sendable (_ received: Int, _ expected: Int?) -> Void
    ) async throws -> (response: HTTPResponse, body: Data)
}

extension HTTPTransport {
    /// Sends a request and waits for the whole answer, reporting nothing as it arrives.
    package func send(
        _ request: HTTPRequest,
        timeout: Duration,
        maximumBodyBytes: Int
    ) async throws -> (response: HTTPResponse, body: Data) {
        try await send(request, timeout: timeout, maximumBodyBytes: maximumBodyBytes) { _, _ in }
    }
}
