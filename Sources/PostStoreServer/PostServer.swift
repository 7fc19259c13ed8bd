import Foundation
import Hummingbird
import HummingbirdCore
public import Logging
import NIOCore
public import PostStore
@_spi(ServerStore) import PostStoreEngines
import ServiceLifecycle

/// Serves a store over HTTP as JSONPlaceholder's `/posts` API, with json-server's query conventions: what
/// `poststore serve` runs.
///
/// Any engine can be served, and the store may change under a running server (a sync in another process): each
/// answer comes from one state of the store, and its `ETag` changes with the posts, so a conditional `GET` is a
/// `304` until they change. See the guide's "Serving a Store" article for the routes, parameters and limits.
///
/// For example, in a test that needs a fake API with real data:
///
/// ```swift
/// let server = PostServer(store: InMemoryPostStore(posts: posts), configuration: .init(port: 0, accessLog: nil))
/// try await server.run { host, port in
///     print("listening on http://\(host):\(port)/posts")
/// }
/// ```
public struct PostServer: Sendable {
    /// The store served.
    public let store: any PostStoreProtocol
    /// How the server listens and what it bounds.
    public let configuration: PostServerConfiguration
    private let logger: Logger

    /// Creates a server; nothing listens until ``run(onListening:)``.
    ///
    /// - Parameters:
    ///   - store: The store to serve.
    ///   - configuration: How to listen and what to allow.
    ///   - logger: Where the server's own events go (not the access log, which goes to standard error); by default
    ///     nowhere.
    public init(
        store: any PostStoreProtocol,
        configuration: PostServerConfiguration = PostServerConfiguration(),
        logger: Logger = Logger(label: "poststore.server", factory: { _ in SwiftLogNoOpLogHandler() })
    ) {
        self.store = store
        self.configuration = configuration
        self.logger = logger
    }

    /// Listens and serves until SIGINT or SIGTERM, or until the task is cancelled.
    ///
    /// A signal stops accepting connections, lets the requests in flight finish for up to the shutdown timeout,
    /// then returns; a cancelled task stops at once.
    ///
    /// - Parameter onListening: Called once the socket listens, with its address and port (the one chosen when the
    ///   configuration's port is 0).
    /// - Throws: `PostStoreError` with `invalidArgument` for a bad configuration, or when the address cannot be
    ///   listened on (in use, not this machine's).
    public func run(onListening: @escaping @Sendable (String, Int) async -> Void = { _, _ in }) async throws {
        try await run(stoppingOnSignals: true, onListening: onListening)
    }

    /// ``run(onListening:)``, stopped by SIGINT and SIGTERM or by cancellation alone: in a test process, whose
    /// signals are not the server's to take.
    package func run(
        stoppingOnSignals: Bool,
        onListening: @escaping @Sendable (String, Int) async -> Void
    ) async throws {
        try configuration.validate()
        let configuration = configuration
        let writingOrigin: String? =
            switch configuration.cors {
            case .off: nil
            case .anyOrigin: "*"
            case .origin(let origin): origin
            }
        let api = PostAPI(
            store: store,
            allowsWrites: configuration.allowsWrites,
            writingOrigin: writingOrigin,
            storeName: configuration.storeName,
            maximumLimit: configuration.maximumLimit,
            maximumWait: configuration.maximumWait
        )
        let responder = PostServerResponder(
            api: api,
            configuration: configuration,
            accessLog: configuration.accessLog.map(AccessLog.init),
            defaultOrigin: "http://\(Self.hostAndPort(configuration.host, configuration.port))"
        )
        let application = Application(
            responder: responder,
            server: HTTPServerBuilder { responder in
                let channel = HTTP1Channel(
                    responder: responder,
                    configuration: HTTP1Channel.Configuration(
                        idleTimeout: TimeAmount(configuration.idleTimeout),
                        httpDecoderConfiguration: HTTP1Channel.Configuration.DecoderConfiguration(
                            maxHeaderFieldSize: configuration.maximumHeaderBytes,
                            maxHeaderListSize: configuration.maximumHeaderBytes
                        )
                    )
                )
                // A store on a server, or one that runs its work on executors of its own, never blocks a thread
                // (its calls await the network or those executors): its requests stay on their connection's event
                // loop. The memory engine scans posts in the call, which would hold up every connection of the
                // loop: its requests run on Swift's pool.
                let isNonblocking = store is any ServerStore || store is any NonblockingStore
                return isNonblocking ? EventLoopBoundChannel(base: channel) : channel
            },
            configuration: ApplicationConfiguration(
                address: .hostname(configuration.host, port: configuration.port),
                serverName: nil,
                availableConnectionsDelegate: MaximumAvailableConnections(configuration.maximumConnections)
            ),
            onServerRunning: { channel in
                await onListening(configuration.host, channel.localAddress?.port ?? configuration.port)
            },
            logger: logger
        )
        var group = ServiceGroupConfiguration(
            // Services are told of a stop last to first: the held changes requests are answered before the
            // application waits for the requests in flight.
            services: [.init(service: application), .init(service: HeldRequestRelease(watcher: api.watcher))],
            gracefulShutdownSignals: stoppingOnSignals ? [.sigterm, .sigint] : [],
            logger: logger
        )
        group.maximumGracefulShutdownDuration = configuration.shutdownTimeout
        do {
            try await ServiceGroup(configuration: group).run()
        } catch let error as IOError {
            throw cannotListen(String(cString: strerror(error.errnoCode)).lowercased(), cause: error)
        } catch let error as SocketAddressError {
            throw cannotListen("\(configuration.host) is not an address of this machine", cause: error)
        } catch let error as SocketAddressError.UnknownHost {
            throw cannotListen("no address is known for the host \"\(configuration.host)\"", cause: error)
        }
    }

    /// The error for an address that cannot be listened on.
    private func cannotListen(_ reason: String, cause: any Error & Sendable) -> PostStoreError {
        PostStoreError(
            .invalidArgument,
            "Cannot listen on \(Self.hostAndPort(configuration.host, configuration.port)): \(reason); choose another "
                + "--host or --port.",
            cause: cause
        )
    }

    /// `host:port`, an IPv6 address in brackets: the authority of a URL.
    package static func hostAndPort(_ host: String, _ port: Int) -> String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }
}

/// Answers every held changes request when the server begins to stop, so that a stop does not wait for their
/// `wait` to end.
private struct HeldRequestRelease: Service {
    let watcher: ChangeWatcher

    func run() async throws {
        try? await gracefulShutdown()
        watcher.stop()
    }
}

extension TimeAmount {
    /// A duration, to the nanosecond.
    init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self = .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
