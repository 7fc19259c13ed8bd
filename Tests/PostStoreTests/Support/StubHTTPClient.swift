import Foundation
import Synchronization

@testable import PostStore

/// An HTTP client that answers from a script and records every request.
///
/// Each request takes the next scripted reply; when the script runs out, `fallback` answers. A reply is a response
/// or a transport failure, so a test can fail chosen attempts.
final class StubHTTPClient: HTTPClient {
    enum Reply: Sendable {
        case response(HTTPResponse)
        case failure(HTTPTransportError)
    }

    private struct State {
        var script: [Reply]
        var requests: [HTTPRequest] = []
    }

    private let state: Mutex<State>
    private let fallback: @Sendable (HTTPRequest) -> Reply

    init(
        _ script: [Reply] = [],
        fallback: @escaping @Sendable (HTTPRequest) -> Reply = { _ in .response(HTTPResponse(statusCode: 404)) }
    ) {
        state = Mutex(State(script: script))
        self.fallback = fallback
    }

    /// Every request so far, in order.
    var requests: [HTTPRequest] { state.withLock { $0.requests } }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let reply =
            state.withLock { state in
                state.requests.append(request)
                return state.script.isEmpty ? nil : state.script.removeFirst()
            } ?? fallback(request)
        switch reply {
        case .response(let response): return response
        case .failure(let error): throw error
        }
    }
}

extension StubHTTPClient.Reply {
    /// A 200 answer with the posts as a JSON array.
    static func posts(_ posts: [Post], headers: [String: String] = [:]) -> Self {
        .response(HTTPResponse(statusCode: 200, headers: headers, body: SamplePosts.json(posts)))
    }

    /// An answer with this status and body.
    static func status(_ code: Int, headers: [String: String] = [:], body: String = "") -> Self {
        .response(HTTPResponse(statusCode: code, headers: headers, body: Data(body.utf8)))
    }
}
