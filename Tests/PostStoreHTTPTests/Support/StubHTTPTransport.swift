import Foundation
import HTTPTypes
import PostStore
import PostStoreHTTP
import PostStoreTesting
import Synchronization

/// An HTTP transport that answers from a queue and records every request.
///
/// A request to a URL with replies queued for it (``respond(to:with:)``) takes the next of those; any other request
/// takes the next reply of the general queue; when that is empty, `fallback` answers (by default a 404). A reply is
/// a response or a transport failure, so a test can fail chosen attempts of chosen pages.
///
/// For example:
///
/// ```swift
/// let transport = StubHTTPTransport([.status(503), .posts(SamplePosts.make(count: 3))])
/// // the first request gets 503, the second three posts
/// ```
final class StubHTTPTransport: HTTPTransport {
    /// One answer.
    enum Reply: Sendable {
        /// The server's answer: its head and its body.
        case response(HTTPResponse, body: Data = Data())
        /// No answer: the connection failed or timed out.
        case failure(HTTPTransportError)
    }

    /// A request as the transport received it, with its limits.
    struct Sent: Sendable, Hashable {
        /// The request.
        var request: HTTPRequest
        /// How long the answer could take.
        var timeout: Duration
        /// The most bytes of body the sender accepts.
        var maximumBodyBytes: Int

        /// The request's URL.
        var url: URL? { request.url }
    }

    private struct State {
        var queue: [Reply]
        var queuesByURL: [String: [Reply]] = [:]
        var requests: [Sent] = []
    }

    private let state: Mutex<State>
    private let fallback: @Sendable (HTTPRequest) -> Reply

    /// Creates a transport.
    ///
    /// - Parameters:
    ///   - replies: Answers for the first requests, in order.
    ///   - fallback: Answers every request after them; by default a 404.
    init(
        _ replies: [Reply] = [],
        fallback: @escaping @Sendable (HTTPRequest) -> Reply = { _ in .status(404) }
    ) {
        state = Mutex(State(queue: replies))
        self.fallback = fallback
    }

    /// Every request so far, in order.
    var requests: [Sent] { state.withLock { $0.requests } }

    /// Queues more answers after those already queued.
    ///
    /// - Parameter replies: The answers.
    func enqueue(_ replies: Reply...) {
        state.withLock { $0.queue += replies }
    }

    /// Queues answers for requests to one URL (compared as `absoluteString`, query included), used before the
    /// general queue.
    ///
    /// - Parameters:
    ///   - url: The URL.
    ///   - replies: The answers, in order.
    func respond(to url: URL, with replies: Reply...) {
        state.withLock { $0.queuesByURL[url.absoluteString, default: []] += replies }
    }

    /// Records the request and answers with the next reply queued for its URL or in general, or the fallback.
    ///
    /// - Parameters:
    ///   - request: The request.
    ///   - timeout: How long the answer may take; recorded.
    ///   - maximumBodyBytes: The most bytes of body accepted; recorded, not enforced.
    ///   - receiving: Told once of the whole body, as if it arrived in one piece.
    /// - Returns: The queued response.
    /// - Throws: The queued `HTTPTransportError`.
    func send(
        _ request: HTTPRequest,
        timeout: Duration,
        maximumBodyBytes: Int,
        receiving: @escaping @Sendable (_ received: Int, _ expected: Int?) -> Void
    ) async throws -> (response: HTTPResponse, body: Data) {
        let queued = state.withLock { state -> Reply? in
            state.requests.append(Sent(request: request, timeout: timeout, maximumBodyBytes: maximumBodyBytes))
            if let url = request.url?.absoluteString, let forURL = state.queuesByURL[url], !forURL.isEmpty {
                return state.queuesByURL[url]?.removeFirst()
            }
            return state.queue.isEmpty ? nil : state.queue.removeFirst()
        }
        switch queued ?? fallback(request) {
        case .response(let response, let body):
            receiving(body.count, body.count)
            return (response, body)
        case .failure(let error): throw error
        }
    }
}

extension StubHTTPTransport.Reply {
    /// A 200 answer with the posts as a JSON array.
    ///
    /// - Parameters:
    ///   - posts: The posts.
    ///   - headers: Header fields, for example `ETag` or `X-Total-Count`.
    /// - Returns: The reply.
    static func posts(_ posts: [Post], headers: HTTPFields = [:]) -> Self {
        .response(HTTPResponse(status: .ok, headerFields: headers), body: SamplePosts.json(posts))
    }

    /// An answer with this status and body.
    ///
    /// - Parameters:
    ///   - code: The status, for example 503.
    ///   - headers: Header fields, for example `Retry-After`.
    ///   - body: The body, as text.
    /// - Returns: The reply.
    static func status(_ code: Int, headers: HTTPFields = [:], body: String = "") -> Self {
        .response(HTTPResponse(status: HTTPResponse.Status(code: code), headerFields: headers), body: Data(body.utf8))
    }
}
