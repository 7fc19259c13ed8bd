public import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A minimal HTTP/1.1 server on 127.0.0.1, an ephemeral port, for integration tests.
///
/// Every connection gets one request and one reply chosen by `handler`, then the server closes it (`Connection:
/// close`, no keep-alive). Each connection runs on its own thread, so a `.hang` reply does not hold up others. The
/// server records every request it reads, so a test can check what the client sent.
///
/// For example:
/// ```swift
/// let server = try TestHTTPServer { request in
///     request.path == "/posts" ? .response(status: 200, body: Data("[]".utf8)) : .response(status: 404)
/// }
/// let (data, _) = try await URLSession.shared.data(from: server.url("/posts?_page=1"))
/// ```
public final class TestHTTPServer: Sendable {
    /// A request as the server read it.
    public struct Request: Sendable {
        /// The method, such as `GET`.
        public let method: String
        /// The path plus `?query` as sent, such as `/posts?_page=2&_limit=10`.
        public let target: String
        /// The target's path, such as `/posts`.
        public let path: String
        /// The query's items, percent-decoded (`+` is kept as it is); when a name repeats, the last value wins.
        public let queryItems: [String: String]
        /// The header fields, names lowercased; when a name repeats, the last value wins.
        public let headers: [String: String]
    }

    /// What the server sends back for a request.
    public enum Reply: Sendable {
        /// A complete response; the server adds Content-Length and `Connection: close`.
        case response(status: Int, headers: [(String, String)] = [], body: Data = Data())
        /// Sends the status and headers with `Content-Length: declaredLength`, then only `body`, then closes.
        case truncated(status: Int, headers: [(String, String)] = [], body: Data, declaredLength: Int)
        /// Reads the request, sends nothing for `duration`, then closes the connection.
        case hang(Duration)
        /// Arbitrary bytes, then close.
        case raw(Data)
    }

    /// A socket call that failed while the server was starting.
    public struct SocketError: Error, CustomStringConvertible {
        /// The failed call, such as `bind`.
        public let call: String
        /// The `errno` it left.
        public let code: Int32

        public var description: String { "\(call) failed: \(String(cString: strerror(code))) (errno \(code))" }
    }

    /// The port the server listens on.
    public let port: Int
    private let listener: Listener
    private let shared: Shared

    /// Starts a server on 127.0.0.1 at a port the system picks, accepting connections on a background thread.
    ///
    /// - Parameter handler: Chooses the reply to each request; called on the connection's thread.
    /// - Throws: `SocketError` when the socket cannot be created, bound or put to listen.
    public init(handler: @escaping @Sendable (Request) -> Reply) throws {
        let fd = socket(AF_INET, Self.streamType, 0)
        guard fd >= 0 else { throw SocketError(call: "socket", code: errno) }
        func fail(_ call: String) -> SocketError {
            let error = SocketError(call: call, code: errno)
            close(fd)
            return error
        }
        Self.configure(fd)
        var yes: Int32 = 1
        guard setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size)) == 0 else {
            throw fail("setsockopt")
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian  // 127.0.0.1
        address.sin_port = 0  // the system picks a free port
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard bound else { throw fail("bind") }
        guard listen(fd, 64) == 0 else { throw fail("listen") }

        port = Int(UInt16(bigEndian: address.sin_port))
        listener = Listener(fd: fd)
        shared = Shared(handler: handler)
        let (listener, shared) = (listener, shared)  // the thread must not retain `self`, or deinit would never run
        Thread { Self.acceptLoop(listener, shared) }.start()
    }

    deinit { stop() }

    /// `http://127.0.0.1:PORT`.
    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// The URL of `pathAndQuery` on this server, such as `url("/posts?_page=2")`.
    public func url(_ pathAndQuery: String) -> URL {
        URL(string: baseURL.absoluteString + (pathAndQuery.hasPrefix("/") ? "" : "/") + pathAndQuery)!
    }

    /// Every request received so far, in the order their heads were read.
    public var requests: [Request] { shared.withRequests { $0 } }

    /// Stops accepting connections; connections already accepted finish their replies.
    ///
    /// Returns at once: the listening socket stops listening here and the accepting thread closes it shortly after.
    /// Calling it again does nothing.
    public func stop() {
        listener.withState { state in
            guard !state.stopped else { return }
            state.stopped = true
            // On Linux this refuses new connections at once and wakes the poll; elsewhere its 100 ms timeout does.
            if !state.closed { shutdown(listener.fd, Int32(SHUT_RDWR)) }
        }
    }

    // MARK: - Internals

    /// The listening socket; the descriptor is shut down and closed only under the state's lock so it is never used
    /// after the accepting thread closed it (and the system handed the number to someone else).
    ///
    /// The lock is an `NSLock`, not a `Mutex`: it is held across `shutdown`, so the accepting thread often waits for
    /// it, and on Linux a waiting `Mutex` is handed over inside the kernel (a priority-inheritance futex), where
    /// ThreadSanitizer cannot see it and reports a race that is not there. It sees `NSLock`'s pthread mutex.
    // @unchecked: `state` is read and written only inside `withState`, under `lock`.
    private final class Listener: @unchecked Sendable {
        let fd: Int32
        private let lock = NSLock()
        private var state = (stopped: false, closed: false)
        init(fd: Int32) { self.fd = fd }

        func withState<Result>(_ body: (inout (stopped: Bool, closed: Bool)) -> Result) -> Result {
            lock.lock()
            defer { lock.unlock() }
            return body(&state)
        }
    }

    /// What the accepting and connection threads share with the server.
    ///
    /// The requests' lock is an `NSLock` for the reason `Listener` gives: connection threads append at once.
    // @unchecked: `received` is read and written only inside `withRequests`, under `lock`.
    private final class Shared: @unchecked Sendable {
        let handler: @Sendable (Request) -> Reply
        private let lock = NSLock()
        private var received: [Request] = []
        init(handler: @escaping @Sendable (Request) -> Reply) { self.handler = handler }

        func withRequests<Result>(_ body: (inout [Request]) -> Result) -> Result {
            lock.lock()
            defer { lock.unlock() }
            return body(&received)
        }
    }

    #if canImport(Glibc)
    private static let streamType = Int32(SOCK_STREAM.rawValue)
    private static let sendFlags = Int32(MSG_NOSIGNAL)
    #else
    private static let streamType = SOCK_STREAM
    private static let sendFlags: Int32 = 0
    #endif

    /// Keeps a socket out of child processes (a test may spawn one) and, on Darwin, from raising SIGPIPE.
    private static func configure(_ fd: Int32) {
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        #if canImport(Darwin)
        var yes: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &yes, socklen_t(MemoryLayout<Int32>.size))
        #endif
    }

    /// Accepts connections until `stop()`, each served on a thread of its own, then closes the listening socket.
    private static func acceptLoop(_ listener: Listener, _ shared: Shared) {
        var pollFD = pollfd(fd: listener.fd, events: Int16(POLLIN), revents: 0)
        while !listener.withState({ $0.stopped }) {
            guard poll(&pollFD, 1, 100) > 0 else { continue }  // timeout or EINTR: check `stopped` again
            let client = accept(listener.fd, nil, nil)
            guard client >= 0 else { continue }  // EINTR, ECONNABORTED, or EINVAL after stop()
            configure(client)
            Thread { serve(client, shared) }.start()
        }
        listener.withState { state in
            state.closed = true
            close(listener.fd)
        }
    }

    /// Reads one request from `fd`, records it, sends the handler's reply and closes the connection.
    private static func serve(_ fd: Int32, _ shared: Shared) {
        defer { close(fd) }
        // A client that connects and sends nothing must not keep this thread forever.
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))

        var buffer = Data()
        let separator = Data("\r\n\r\n".utf8)
        var headEnd: Range<Data.Index>?
        while headEnd == nil {
            guard buffer.count < 1 << 20, let chunk = receive(fd) else { return }
            buffer.append(chunk)
            headEnd = buffer.range(of: separator)
        }
        guard let headEnd, let request = parse(String(decoding: buffer[..<headEnd.lowerBound], as: UTF8.self)) else {
            return
        }
        // Consume the body so closing does not reset the connection over unread bytes.
        var bodyLeft =
            (request.headers["content-length"].flatMap { Int($0) } ?? 0) - (buffer.count - headEnd.upperBound)
        while bodyLeft > 0, let chunk = receive(fd) { bodyLeft -= chunk.count }

        shared.withRequests { $0.append(request) }
        switch shared.handler(request) {
        case .response(let status, let headers, let body):
            let hasBody = status >= 200 && status != 204 && status != 304
            let head = responseHead(status, headers, contentLength: hasBody ? body.count : nil)
            sendAll(fd, head + (hasBody ? body : Data()))
        case .truncated(let status, let headers, let body, let declaredLength):
            sendAll(fd, responseHead(status, headers, contentLength: declaredLength) + body)
        case .hang(let duration):
            // Not a test waiting for time: this is the reply, a server that says nothing for `duration`, and tests
            // rely on it holding the connection even after their client gave up (a serial server would then stall).
            let (seconds, attoseconds) = duration.components
            Thread.sleep(forTimeInterval: Double(seconds) + Double(attoseconds) / 1e18)
        case .raw(let data):
            sendAll(fd, data)
        }
    }

    /// Parses a request head: the request line and the header lines, without the blank line.
    private static func parse(_ head: String) -> Request? {
        let lines = head.components(separatedBy: "\r\n")
        let requestLine = lines[0].split(separator: " ", omittingEmptySubsequences: true)
        guard requestLine.count == 3 else { return nil }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            headers[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let target = String(requestLine[1])
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        var queryItems: [String: String] = [:]
        for item in parts.count > 1 ? parts[1].split(separator: "&") : [] {
            let pair = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let decode = { (part: Substring) in String(part).removingPercentEncoding ?? String(part) }
            queryItems[decode(pair[0])] = pair.count > 1 ? decode(pair[1]) : ""
        }
        return Request(
            method: String(requestLine[0]),
            target: target,
            path: String(parts[0]),
            queryItems: queryItems,
            headers: headers
        )
    }

    /// The status line and header block, ending with the blank line; `contentLength` nil sends no Content-Length.
    private static func responseHead(_ status: Int, _ headers: [(String, String)], contentLength: Int?) -> Data {
        var head = "HTTP/1.1 \(status) \(reasonPhrases[status] ?? "Status \(status)")\r\n"
        // The server owns framing: a handler's own Content-Length or Connection would contradict it.
        for (name, value) in headers where !["content-length", "connection"].contains(name.lowercased()) {
            head += "\(name): \(value)\r\n"
        }
        if let contentLength { head += "Content-Length: \(contentLength)\r\n" }
        head += "Connection: close\r\n\r\n"
        return Data(head.utf8)
    }

    private static let reasonPhrases: [Int: String] = [
        200: "OK", 201: "Created", 204: "No Content", 301: "Moved Permanently", 302: "Found", 304: "Not Modified",
        400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 408: "Request Timeout",
        429: "Too Many Requests", 500: "Internal Server Error", 502: "Bad Gateway", 503: "Service Unavailable",
        504: "Gateway Timeout",
    ]

    /// Reads what is available; nil at end of stream, on an error or after the receive timeout.
    private static func receive(_ fd: Int32) -> Data? {
        var bytes = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = recv(fd, &bytes, bytes.count, 0)
            if count > 0 { return Data(bytes[..<count]) }
            if count < 0 && errno == EINTR { continue }
            return nil
        }
    }

    /// Sends all of `data`, giving up quietly if the peer has gone (the test then sees whatever the client saw).
    private static func sendAll(_ fd: Int32, _ data: Data) {
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let sent = send(fd, raw.baseAddress! + offset, raw.count - offset, sendFlags)
                if sent > 0 {
                    offset += sent
                } else if sent < 0 && errno == EINTR {
                    continue
                } else {
                    return
                }
            }
        }
    }
}
