import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A minimal HTTP server on 127.0.0.1 for the conditional re-sync measure: it answers `[]` with `ETag: "v1"`, and
/// `304 Not Modified` to a request that sends `If-None-Match: "v1"`. One connection at a time, on its own thread.
final class NotModifiedServer: Sendable {
    /// The port it listens on.
    let port: UInt16
    private let socket: Int32

    init() throws {
        let listener = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) }
        }
        guard bound == 0, listen(listener, 16) == 0 else { throw BenchmarkError("cannot listen on 127.0.0.1") }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        socket = listener
        port = UInt16(bigEndian: address.sin_port)
        Thread.detachNewThread { [socket] in Self.serve(socket) }
    }

    /// The URL of its list of posts.
    var url: String { "http://127.0.0.1:\(port)/posts" }

    private static func serve(_ listener: Int32) {
        while true {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { return }
            var request = [UInt8]()
            var buffer = [UInt8](repeating: 0, count: 4096)
            while !request.ends(with: Array("\r\n\r\n".utf8)) {
                let count = read(connection, &buffer, buffer.count)
                if count <= 0 { break }
                request += buffer[0..<count]
            }
            let text = String(decoding: request, as: UTF8.self).lowercased()
            let answer =
                text.contains("if-none-match: \"v1\"")
                ? "HTTP/1.1 304 Not Modified\r\nETag: \"v1\"\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
                : "HTTP/1.1 200 OK\r\nETag: \"v1\"\r\nContent-Type: application/json\r\nContent-Length: 2\r\n"
                    + "Connection: close\r\n\r\n[]"
            _ = Array(answer.utf8).withUnsafeBytes { write(connection, $0.baseAddress, $0.count) }
            close(connection)
        }
    }
}

extension Array where Element == UInt8 {
    fileprivate func ends(with suffix: [UInt8]) -> Bool {
        count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix
    }
}
