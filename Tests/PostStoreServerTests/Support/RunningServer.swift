import Logging
import PostStore
import PostStoreServer
import PostStoreTestSupport

/// Runs a ``PostServer`` on a free loopback port for the length of a test body, then stops it.
enum RunningServer {
    /// Serves `store` while `body` runs.
    ///
    /// - Parameters:
    ///   - store: The store to serve.
    ///   - configuration: The configuration; its port is always 0 and its access log off.
    ///   - body: The test, given a client of the server.
    static func with<Result: Sendable>(
        _ store: any PostStoreProtocol,
        configuration: PostServerConfiguration = PostServerConfiguration(),
        _ body: (RawHTTPClient) async throws -> Result
    ) async throws -> Result {
        var configuration = configuration
        configuration.port = 0
        configuration.accessLog = nil
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        // Hummingbird reports the cancellation that stops a test's server as an error: not news here.
        var logger = Logger(label: "test.server")
        logger.logLevel = .critical
        let server = PostServer(store: store, configuration: configuration, logger: logger)
        let task = Task {
            defer { continuation.finish() }
            try await server.run(stoppingOnSignals: false) { _, port in continuation.yield(port) }
        }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else {
            try await task.value
            throw RawHTTPClient.Failure(description: "the server stopped before it listened")
        }
        do {
            let result = try await body(RawHTTPClient(port: port))
            task.cancel()
            _ = try? await task.value
            return result
        } catch {
            task.cancel()
            _ = try? await task.value
            throw error
        }
    }
}
