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
    ///   - configuration: The configuration; its port is 0 (unless `keepingPort`) and its access log off, and a
    ///     request timeout
    ///     left at its default is raised to `hangLimit`: the server's timer runs on NIO's event loop, the store's
    ///     answer on the concurrency pool, which a suite under a sanitizer kept busy for minutes (answers of a
    ///     correct server became 503s after 30 s). The tests of the timeout set their own.
    ///   - keepingPort: Whether to listen on the configuration's port: a server restarted where one was.
    ///   - body: The test, given a client of the server.
    static func with<Result: Sendable>(
        _ store: any PostStoreProtocol,
        configuration: PostServerConfiguration = PostServerConfiguration(),
        keepingPort: Bool = false,
        _ body: (RawHTTPClient) async throws -> Result
    ) async throws -> Result {
        var configuration = configuration
        if !keepingPort { configuration.port = 0 }
        configuration.accessLog = nil
        if configuration.requestTimeout == PostServerConfiguration().requestTimeout {
            configuration.requestTimeout = hangLimit
        }
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
