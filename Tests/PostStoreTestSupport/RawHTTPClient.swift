public import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A minimal HTTP/1.1 client over a socket to 127.0.0.1: sends exactly the bytes a test writes and returns the answer
/// as it came (no decompression, no redirects, no headers added), so that the server's own bytes are checked.
public struct RawHTTPClient: Sendable {
    /// An answer: status, header fields (names lowercased) and the body's bytes.
    public struct Answer: Sendable, CustomStringConvertible {
        public var status: Int
        public var headers: [(name: String, value: String)]
        public var body: Data

        /// The first value of a header field.
        public func header(_ name: String) -> String? {
            headers.first { $0.name == name.lowercased() }?.value
        }

        /// The body as UTF-8 text.
        public var text: String { String(decoding: body, as: UTF8.self) }

        public var description: String { "\(status) \(headers.map { "\($0.name): \($0.value)" }) \(text.prefix(300))" }
    }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String

        public init(description: String) { self.description = description }
    }

    /// The server's port on 127.0.0.1.
    public let port: Int

    /// A client of the server at 127.0.0.1:`port`.
    public init(port: Int) { self.port = port }

    /// Sends a request and reads its answer.
    ///
    /// - Parameters:
    ///   - method: The method.
    ///   - target: The path and query.
    ///   - headers: Extra header fields (`Connection: close` is always sent, and `Host` unless given).
    ///   - body: The body; its `Content-Length` is sent with it.
    public func send(
        _ method: String = "GET",
        _ target: String,
        headers: [String: String] = [:],
        body: Data? = nil
    ) async throws -> Answer {
        var head = "\(method) \(target) HTTP/1.1\r\nConnection: close\r\n"
        if headers["Host"] == nil { head += "Host: 127.0.0.1:\(port)\r\n" }
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
        if let body { head += "Content-Length: \(body.count)\r\n" }
        let request = Data((head + "\r\n").utf8) + (body ?? Data())
        let bytes = try await exchange(request)
        return try Self.parse(bytes, isHead: method == "HEAD")
    }

    /// Writes raw bytes on a new connection and reads until the server closes it.
    ///
    /// - Parameters:
    ///   - request: The bytes to send.
    ///   - readTimeout: How long one read or write may wait; longer throws: ``hangLimit`` unless told.
    ///   - onFirstBytes: Called once the first bytes of the answer have arrived (on the reading thread).
    public func exchange(
        _ request: Data,
        readTimeout: Duration = hangLimit,
        onFirstBytes: @escaping @Sendable () -> Void = {}
    ) async throws -> Data {
        let port = port
        return try await onOwnThread {
            let socket = try Self.connect(port: port)
            defer { close(socket) }
            var timeout = timeval(tv_sec: Int(readTimeout.components.seconds), tv_usec: 0)
            setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            setsockopt(socket, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            try request.withUnsafeBytes { raw in
                var sent = 0
                while sent < raw.count {
                    let count = Self.write(socket, raw.baseAddress! + sent, raw.count - sent)
                    if count < 0, errno == EINTR { continue }
                    guard count > 0 else { throw Failure(description: "write failed: errno \(errno)") }
                    sent += count
                }
            }
            var received = Data()
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = read(socket, &buffer, buffer.count)
                if count == 0 { break }
                guard count > 0 else {
                    // A signal, or a debugger attaching (the deep checks' starvation watch), interrupts a read with
                    // a receive timeout rather than restarting it.
                    if errno == EINTR { continue }
                    if errno == ECONNRESET { break }
                    throw Failure(description: "read failed: errno \(errno)")
                }
                if received.isEmpty { onFirstBytes() }
                received.append(contentsOf: buffer[0..<count])
            }
            return received
        }
    }

    /// Writes bytes; a write to a connection the server closed fails with `EPIPE` rather than stop the test process.
    private static func write(_ socket: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.send(socket, bytes, count, Int32(MSG_NOSIGNAL))
        #else
        Darwin.send(socket, bytes, count, 0)  // SO_NOSIGPIPE is set on the socket.
        #endif
    }

    /// A connected socket, for tests that hold one open.
    public static func connect(port: Int) throws -> Int32 {
        #if canImport(Glibc)
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let socket = Darwin.socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard socket >= 0 else { throw Failure(description: "socket failed: errno \(errno)") }
        #if canImport(Darwin)
        var on: Int32 = 1
        setsockopt(socket, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
        #endif
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            close(socket)
            throw Failure(description: "connect to port \(port) failed: errno \(errno)")
        }
        return socket
    }

    /// Parses one answer (the body by its `Content-Length`, or to the end).
    public static func parse(_ bytes: Data, isHead: Bool = false) throws -> Answer {
        guard let end = bytes.range(of: Data("\r\n\r\n".utf8)) else {
            throw Failure(
                description: "no complete head in \(bytes.count) bytes: \(String(decoding: bytes, as: UTF8.self))"
            )
        }
        let lines = String(decoding: bytes[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = lines[0].split(separator: " ")
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else {
            throw Failure(description: "bad status line \(lines[0])")
        }
        let headers = lines.dropFirst().compactMap { line -> (String, String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (line[..<colon].lowercased(), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        var body = Data(bytes[end.upperBound...])
        if let length = headers.first(where: { $0.0 == "content-length" }).flatMap({ Int($0.1) }), !isHead {
            body = body.prefix(length)
        }
        return Answer(status: status, headers: headers.map { (name: $0.0, value: $0.1) }, body: isHead ? Data() : body)
    }
}
