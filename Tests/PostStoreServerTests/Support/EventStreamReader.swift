import Foundation
import PostStore
import PostStoreTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// A client of a Server-Sent Events stream over a real socket: it sends one `GET` and reads the answer as it comes,
/// on a thread of its own, so a test can wait for each event and for the end of the stream.
final class EventStreamReader: Sendable {
    /// One event of the stream; comments are left out.
    struct Event: Equatable, Sendable {
        var id: String?
        var name: String?
        var data: String
    }

    private let socket: Int32
    private let received = ReceivedBytes()

    /// Connects and sends the request; the answer is read from then on.
    ///
    /// - Parameters:
    ///   - port: The server's port on 127.0.0.1.
    ///   - target: The path and query.
    ///   - headers: Extra header fields; `Accept: text/event-stream` is always sent.
    init(port: Int, target: String, headers: [String: String] = [:]) throws {
        socket = try RawHTTPClient.connect(port: port)
        var head = "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAccept: text/event-stream\r\n"
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
        let request = Array((head + "\r\n").utf8)
        guard send(socket, request, request.count, Int32(MSG_NOSIGNAL)) == request.count else {
            close(socket)
            throw RawHTTPClient.Failure(description: "sending the request failed: errno \(errno)")
        }
        let thread = Thread { [received, socket] in
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = read(socket, &buffer, buffer.count)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return received.complete() }
                received.append(buffer[0..<count])
            }
        }
        thread.start()
    }

    deinit {
        shutdown(socket, Int32(SHUT_RDWR))
        close(socket)
    }

    /// Closes the connection from this side, as a client that goes away.
    func hangUp() {
        shutdown(socket, Int32(SHUT_RDWR))
    }

    /// The answer's head, once it has come.
    func head(timeout: Duration = hangLimit) async throws -> RawHTTPClient.Answer {
        try await when(timeout, "the head") { received, _ in
            guard let end = received.range(of: Data("\r\n\r\n".utf8)) else { return nil }
            return try? RawHTTPClient.parse(received[..<end.upperBound], isHead: true)
        }
    }

    /// Every event so far, once there are at least `count`.
    @discardableResult
    func events(atLeast count: Int, timeout: Duration = hangLimit) async throws -> [Event] {
        try await when(timeout, "\(count) events") { received, _ in
            let events = Self.events(in: received)
            return events.count >= count ? events : nil
        }
    }

    /// Every event, once the stream has ended: its last chunk came, or the server closed the connection.
    func eventsUntilClosed(timeout: Duration = hangLimit) async throws -> [Event] {
        try await when(timeout, "the end of the stream") { received, isClosed in
            isClosed || Self.unchunked(received).isComplete ? Self.events(in: received) : nil
        }
    }

    /// The raw body so far, chunk framing removed (comments included).
    var body: String {
        String(decoding: Self.unchunked(received.snapshot.received).body, as: UTF8.self)
    }

    private func when<Found>(
        _ timeout: Duration,
        _ what: String,
        _ find: (Data, Bool) -> Found?
    ) async throws -> Found {
        try await received.when(timeout: timeout) { reason, received in
            RawHTTPClient.Failure(
                description: "No \(what) (\(reason)); received: \(String(decoding: received, as: UTF8.self))"
            )
        } _: { received, isClosed in
            find(received, isClosed)
        }
    }

    /// The events of the whole ones received, in the body after the head.
    private static func events(in received: Data) -> [Event] {
        let text = String(decoding: unchunked(received).body, as: UTF8.self)
        return text.components(separatedBy: "\n\n").dropLast().compactMap { block in
            var event = Event(data: "")
            var hasData = false
            for line in block.split(separator: "\n", omittingEmptySubsequences: true) where !line.hasPrefix(":") {
                if line.hasPrefix("id: ") { event.id = String(line.dropFirst(4)) }
                if line.hasPrefix("event: ") { event.name = String(line.dropFirst(7)) }
                if line.hasPrefix("data: ") {
                    event.data += (hasData ? "\n" : "") + line.dropFirst(6)
                    hasData = true
                }
            }
            return hasData ? event : nil
        }
    }

    /// The body after the head, its chunked framing removed (whole chunks only), and whether its last chunk (of
    /// size 0) has come.
    private static func unchunked(_ received: Data) -> (body: Data, isComplete: Bool) {
        guard let end = received.range(of: Data("\r\n\r\n".utf8)) else { return (Data(), false) }
        var rest = received[end.upperBound...]
        var body = Data()
        while let line = rest.range(of: Data("\r\n".utf8)),
            let size = Int(String(decoding: rest[..<line.lowerBound], as: UTF8.self), radix: 16),
            rest.distance(from: line.upperBound, to: rest.endIndex) >= size + 2
        {
            if size == 0 { return (body, true) }
            let start = line.upperBound
            body.append(rest[start..<rest.index(start, offsetBy: size)])
            rest = rest[rest.index(start, offsetBy: size + 2)...]
        }
        return (body, false)
    }
}
