import Foundation
import HTTPTypes
import PostStoreHTTP
import PostStoreTesting
import Testing

/// The HTTP double the data service's tests use: it answers in order and records every request.
@Suite struct StubHTTPTransportTests {
    @Test func theStubHTTPTransportAnswersInOrderThenFallsBack() async throws {
        let transport = StubHTTPTransport([.status(503), .failure(HTTPTransportError(.timedOut, "slow"))])
        transport.enqueue(.posts(SamplePosts.make(count: 1)))
        let request = HTTPRequest(url: URL(string: "https://example.com/posts")!)

        #expect(try await transport.send(request).response.status == .serviceUnavailable)
        await #expect(throws: HTTPTransportError.self) { try await transport.send(request) }
        #expect(try await transport.send(request).body == SamplePosts.json(SamplePosts.make(count: 1)))
        #expect(try await transport.send(request).response.status == .notFound)
        #expect(transport.requests.count == 4)
    }

    @Test func theStubHTTPTransportAnswersAURLFromItsOwnQueueFirst() async throws {
        let pageTwo = URL(string: "https://example.com/posts?_page=2")!
        let transport = StubHTTPTransport([.status(200), .status(201)])
        transport.respond(to: pageTwo, with: .status(503), .status(202))

        #expect(try await transport.send(HTTPRequest(url: pageTwo)).response.status.code == 503)
        #expect(
            try await transport.send(HTTPRequest(url: URL(string: "https://example.com/posts")!)).response.status.code
                == 200
        )
        #expect(try await transport.send(HTTPRequest(url: pageTwo)).response.status.code == 202)
        #expect(try await transport.send(HTTPRequest(url: pageTwo)).response.status.code == 201)
    }

    @Test func theStubHTTPTransportRecordsEachRequestWithItsLimits() async throws {
        let transport = StubHTTPTransport()
        let request = HTTPRequest(url: URL(string: "https://example.com/posts")!, headerFields: [.accept: "*/*"])

        _ = try await transport.send(request, timeout: .seconds(3), maximumBodyBytes: 99)

        #expect(
            transport.requests == [StubHTTPTransport.Sent(request: request, timeout: .seconds(3), maximumBodyBytes: 99)]
        )
    }
}

extension HTTPTransport {
    /// Sends `request` with a 30-second timeout and no size limit.
    fileprivate func send(_ request: HTTPRequest) async throws -> (response: HTTPResponse, body: Data) {
        try await send(request, timeout: .seconds(30), maximumBodyBytes: .max)
    }
}
