import Foundation
import HTTPTypes
import PostStore

/// A list route as Server-Sent Events (`Accept: text/event-stream`): the list's result now, then again after each
/// write that changes it, each an event whose id is the store's revision of that result and whose data is the
/// posts as a JSON array on one line.
///
/// A client that reconnects with `Last-Event-ID` set to the store's current revision gets nothing until the next
/// change; with any other id it gets the current result at once. A comment line every ``keepAlive`` keeps proxies
/// from closing a quiet stream and finds a client that has gone. The stream ends when the client goes or the
/// server stops (the server's watcher, ``ChangeWatcher/stop()``), and with an `error` event when the store fails.
/// Each stream holds one of the server's connections (`--max-connections`).
struct EventStream {
    /// How often a quiet stream sends a comment.
    static let keepAlive = Duration.seconds(15)

    /// The `Last-Event-ID` header.
    static let lastEventID = HTTPField.Name("Last-Event-ID")!

    /// Whether the request asks for events rather than a document: a `GET` whose `Accept` names
    /// `text/event-stream` (in any case) without `q=0`.
    static func isWanted(by request: APIRequest) -> Bool {
        guard request.method == .get, let accept = request.headers[.accept] else { return false }
        return QualityValues.items(in: accept).contains { $0.value == "text/event-stream" && $0.weight > 0 }
    }

    /// A list's page as an event: its posts compared (the event's data), its revision the event's id.
    struct Page: Sendable, Equatable {
        let page: PostPage

        static func == (lhs: Page, rhs: Page) -> Bool {
            lhs.page.posts == rhs.page.posts
        }
    }

    /// The response that streams an observation's pages.
    ///
    /// - Parameters:
    ///   - observation: The list's pages (or what holds them) as they change.
    ///   - request: The request, for its `Last-Event-ID`.
    ///   - page: The page an observed value sends.
    static func response<Value>(
        streaming observation: PostObservation<Value>,
        to request: APIRequest,
        page: @escaping @Sendable (Value) -> PostPage
    ) -> APIResponse {
        var headers = HTTPFields()
        headers[.contentType] = "text/event-stream; charset=utf-8"
        headers[.cacheControl] = "no-cache"
        var response = APIResponse(status: .ok, headers: headers)
        let lastEventID = request.headers[Self.lastEventID]
        response.stream = { send in
            var pages = observation.makeAsyncIterator()
            var isFirst = true
            do {
                while true {
                    switch try await pages.next(within: keepAlive) {
                    case .value(let value):
                        defer { isFirst = false }
                        let page = page(value)
                        // A client that reconnects with the revision it has needs nothing until the next change.
                        if isFirst, let revision = page.revision, revision == lastEventID { continue }
                        try await send(event(page))
                    case .quiet:
                        try await send(Array(": still here\n\n".utf8))
                    case .ended:
                        return
                    }
                }
            } catch let error as PostStoreError {
                let message = error.message.split(whereSeparator: \.isNewline).joined(separator: " ")
                try await send(Array("event: error\ndata: \(message)\n\n".utf8))
            }
        }
        return response
    }

    /// A page as an event.
    static func event(_ page: PostPage) -> [UInt8] {
        var bytes: [UInt8] = []
        if let revision = page.revision { bytes += Array("id: \(revision)\n".utf8) }
        bytes += Array("data: ".utf8) + Array(PostJSON.encode(page.posts)) + Array("\n\n".utf8)
        return bytes
    }
}
