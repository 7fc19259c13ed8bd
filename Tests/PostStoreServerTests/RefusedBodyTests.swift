import Foundation
import PostStore
import PostStoreTestSupport
import Testing

@testable import PostStoreServer

/// A body the server refuses without reading it whole (over the limit, or sent to a read-only server) is answered
/// to a client that sends its whole body before it reads, as Python's `urllib` does: the server reads and drops the
/// rest, and closes the connection after the answer. The client here writes all 10 MB before its first read, and its
/// writes and reads give up after `hangLimit`; the server's idle timeout is longer, so only an answer ends the test.
@Suite struct RefusedBodyTests {
    /// How the request says where its body ends.
    enum Framing: String, CaseIterable, Sendable {
        case contentLength = "Content-Length"
        case chunked = "Transfer-Encoding: chunked"
    }

    private static let bodySize = 10 << 20

    @Test(arguments: Framing.allCases, [true, false])
    func aBodyOverTheLimitIsAnswered(framing: Framing, connectionClose: Bool) async throws {
        let store = InMemoryPostStore()
        try await RunningServer.with(store, configuration: Self.configuration(allowsWrites: true)) { client in
            let request = Self.post(framing: framing, connectionClose: connectionClose)
            let answer = try RawHTTPClient.parse(try await client.exchange(request))
            #expect(answer.status == 413 && answer.text.contains("limit of 1000 bytes"), "\(answer)")
            #expect(answer.header("connection") == "close")
            #expect(try await store.count() == 0)
            // The server goes on serving.
            #expect(try await client.send("GET", "/posts").status == 200)
        }
    }

    @Test(arguments: Framing.allCases)
    func aReadOnlyServerRefusesTheMethodNotTheSize(framing: Framing) async throws {
        let store = InMemoryPostStore()
        try await RunningServer.with(store, configuration: Self.configuration(allowsWrites: false)) { client in
            let answer = try RawHTTPClient.parse(
                try await client.exchange(Self.post(framing: framing, connectionClose: true))
            )
            #expect(answer.status == 405 && answer.text.contains("--allow-writes"), "\(answer)")
            #expect(answer.header("connection") == "close")
        }
    }

    /// A body within the limit keeps the connection open for the next request, as before.
    @Test func aBodyWithinTheLimitKeepsTheConnection() async throws {
        try await RunningServer.with(InMemoryPostStore(), configuration: Self.configuration(allowsWrites: true)) {
            client in
            let post = #"{"userId": 1, "title": "t", "body": "b"}"#
            let request =
                "POST /posts HTTP/1.1\r\nHost: x\r\nContent-Length: \(post.utf8.count)\r\n\r\n\(post)"
                + "GET /posts/1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
            let answers = String(decoding: try await client.exchange(Data(request.utf8)), as: UTF8.self)
            #expect(answers.hasPrefix("HTTP/1.1 201"), "\(answers)")
            #expect(answers.contains("HTTP/1.1 200"), "\(answers)")
        }
    }

    private static func configuration(allowsWrites: Bool) -> PostServerConfiguration {
        var configuration = PostServerConfiguration(allowsWrites: allowsWrites)
        configuration.maximumBodyBytes = 1000
        configuration.idleTimeout = .seconds(600)
        return configuration
    }

    /// `POST /posts` with a 10 MB body.
    private static func post(framing: Framing, connectionClose: Bool) -> Data {
        let chunk = Data(repeating: UInt8(ascii: "x"), count: 64 << 10)
        var head = "POST /posts HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        if connectionClose { head += "Connection: close\r\n" }
        var request = Data()
        switch framing {
        case .contentLength:
            request.append(contentsOf: (head + "Content-Length: \(bodySize)\r\n\r\n").utf8)
            for _ in 0..<(bodySize / chunk.count) { request.append(chunk) }
        case .chunked:
            request.append(contentsOf: (head + "Transfer-Encoding: chunked\r\n\r\n").utf8)
            for _ in 0..<(bodySize / chunk.count) {
                request.append(contentsOf: (String(chunk.count, radix: 16) + "\r\n").utf8)
                request.append(chunk)
                request.append(contentsOf: "\r\n".utf8)
            }
            request.append(contentsOf: "0\r\n\r\n".utf8)
        }
        return request
    }
}
