import Foundation
import PostStore
import PostStoreTesting
import Synchronization

@testable import PostStoreHTTP

/// An HTTP client that answers from a queue and records every request.
///
/// A request to a URL with replies queued for it (``respond(to:with:)``) takes the next of those; any other request
/// takes the next reply of the general queue; when that is empty, `fallback` answers (by default a 404). A reply is
/// a response or a transport failure, so a test can fail chosen attempts of chosen pages.
///
/// For example:
///
/// ```swift
/// let client = StubHTTPClient([.status(503), .posts(SamplePosts.make(count: 3))])
/// // the first request gets 503, the second three posts
/// ```
final class StubHTTPClient: HTTPClient {
    /// One answer.
    enum Reply: Sendable {
        /// The server's answer.
        case response(HTTPResponse)
        /// No answer: the connection failed or timed out.
        case failure(HTTPTransportError)
    }

    private struct State {
        var queue: [Reply]
        var queuesByURL: [String: [Reply]] = [:]
        var requests: [HTTPRequest] = []
    }

    private let state: Mutex<State>
    private let fallback: @Sendable (HTTPRequest) -> Reply

    /// Creates a client.
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
    var requests: [HTTPRequest] { state.withLock { $0.requests } }

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
    /// - Parameter request: The request.
    /// - Returns: The queued response.
    /// - Throws: The queued `HTTPTransportError`.
    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let queued = state.withLock { state -> Reply? in
            state.requests.append(request)
            let url = request.url.absoluteString
            if let forURL = state.queuesByURL[url], !forURL.isEmpty {
                return state.queuesByURL[url]?.removeFirst()
            }
            return state.queue.isEmpty ? nil : state.queue.removeFirst()
        }
        switch queued ?? fallback(request) {
        case .response(let response): return response
        case .failure(let error): throw error
        }
    }
}

extension StubHTTPClient.Reply {
    /// A 200 answer with the posts as a JSON array.
    ///
    /// - Parameters:
    ///   - posts: The posts.
    ///   - headers: Header fields, for example `ETag` or `X-Total-Count`.
    /// - Returns: The reply.
    static func posts(_ posts: [Post], headers: [String: String] = [:]) -> Self {
        .response(HTTPResponse(statusCode: 200, headers: headers, body: SamplePosts.json(posts)))
    }

    /// An answer with this status and body.
    ///
    /// - Parameters:
    ///   - code: The status, for example 503.
    ///   - headers: Header fields, for example `Retry-After`.
    ///   - body: The body, as text.
    /// - Returns: The reply.
    static func status(_ code: Int, headers: [String: String] = [:], body: String = "") -> Self {
        .response(HTTPResponse(statusCode: code, headers: headers, body: Data(body.utf8)))
    }
}
