import Foundation
import PostStoreTesting
import Testing

@testable import PostStoreHTTP

/// The HTTP double the data service's tests use: it answers in order and records every request.
@Suite struct StubHTTPClientTests {
    @Test func theStubHTTPClientAnswersInOrderThenFallsBack() async throws {
        let client = StubHTTPClient([.status(503), .failure(HTTPTransportError(.timedOut, "slow"))])
        client.enqueue(.posts(SamplePosts.make(count: 1)))
        let request = HTTPRequest(url: URL(string: "https://example.com/posts")!)

        #expect(try await client.send(request).statusCode == 503)
        await #expect(throws: HTTPTransportError.self) { try await client.send(request) }
        #expect(try await client.send(request).body == SamplePosts.json(SamplePosts.make(count: 1)))
        #expect(try await client.send(request).statusCode == 404)
        #expect(client.requests.count == 4)
    }

    @Test func theStubHTTPClientAnswersAURLFromItsOwnQueueFirst() async throws {
        let pageTwo = URL(string: "https://example.com/posts?_page=2")!
        let client = StubHTTPClient([.status(200), .status(201)])
        client.respond(to: pageTwo, with: .status(503), .status(202))

        #expect(try await client.send(HTTPRequest(url: pageTwo)).statusCode == 503)
        #expect(try await client.send(HTTPRequest(url: URL(string: "https://example.com/posts")!)).statusCode == 200)
        #expect(try await client.send(HTTPRequest(url: pageTwo)).statusCode == 202)
        #expect(try await client.send(HTTPRequest(url: pageTwo)).statusCode == 201)
    }
}
