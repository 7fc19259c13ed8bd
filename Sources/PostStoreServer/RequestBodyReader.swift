import Hummingbird
import NIOCore

/// A request's body, read by one task at a time: collected within the limit by the work that answers the request,
/// and what that work left unread (a body over the limit, a refused method's, one cut off by the timeout) read and
/// dropped after the answer is sent, so that a client that sends its whole body before it reads can read the answer.
///
/// `@unchecked Sendable` because the body's iterator is not `Sendable`, and a lock cannot hold it across the reads'
/// suspensions. The uses never overlap: `PostServerResponder.respond` creates the reader, the answering work calls
/// ``collect(upTo:)`` in its own task, and `respond` reads ``isFinished`` only after that task has ended (the request
/// timeout's wrapper awaits it even after cancelling it); ``discardRest()`` runs in the response's body, which
/// Hummingbird writes after `respond` has returned. Each hand-off waits for the end of the use before it, which also
/// orders the memory.
final class RequestBodyReader: @unchecked Sendable {
    private var iterator: RequestBody.AsyncIterator?
    /// Whether the body has been read to its end: when it has not, the connection cannot carry another request.
    private(set) var isFinished: Bool

    /// - Parameters:
    ///   - body: The request's body; read by this reader alone from now on.
    ///   - isEmpty: Whether the request has no body (no `Content-Length` above 0 and no `Transfer-Encoding`).
    init(_ body: RequestBody, isEmpty: Bool) {
        iterator = isEmpty ? nil : body.makeAsyncIterator()
        isFinished = isEmpty
    }

    /// The whole body, or `nil` when it is longer than `limit` bytes (the rest is left unread).
    func collect(upTo limit: Int) async throws -> [UInt8]? {
        guard !isFinished, var iterator else { return [] }
        defer { self.iterator = iterator }
        var body: [UInt8] = []
        while let buffer = try await iterator.next() {
            guard body.count + buffer.readableBytes <= limit else { return nil }
            body.append(contentsOf: buffer.readableBytesView)
        }
        isFinished = true
        return body
    }

    /// Reads the rest of the body and drops it, until its end or until the connection closes.
    func discardRest() async {
        guard !isFinished, var iterator else { return }
        // An error means the connection closed or failed: there is nothing more to read either way.
        while (try? await iterator.next()) != nil {}
        self.iterator = nil
        isFinished = true
    }
}
