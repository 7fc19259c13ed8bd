package import PostStore

/// How a ``PostServer`` listens, what it allows and what it bounds.
///
/// The defaults suit a local server: loopback only, reads only, CORS open to any origin while writes are off.
///
/// For example, a server that takes writes from one web app under development:
///
/// ```swift
/// var configuration = PostServerConfiguration(port: 8080)
/// configuration.allowsWrites = true
/// configuration.cors = .origin("http://localhost:5173")
/// ```
public struct PostServerConfiguration: Sendable, Hashable {
    /// Which origins a browser lets read the answers (CORS).
    public enum CORS: Sendable, Hashable {
        /// No CORS headers: browsers let only pages of the server's own origin read.
        case off
        /// `Access-Control-Allow-Origin: *`: any page.
        case anyOrigin
        /// Pages of this origin alone, such as `http://localhost:5173`.
        case origin(String)
    }

    /// The format of the access log's lines.
    public enum AccessLogFormat: String, Sendable, Hashable, CaseIterable {
        /// `127.0.0.1 "GET /posts/1 HTTP/1.1" 200 292 0.4ms`.
        case text
        /// One JSON object a line: `time`, `remote`, `method`, `target`, `status`, `bytes`, `milliseconds`.
        case json
    }

    /// The address to listen on; `127.0.0.1` by default (`0.0.0.0` for every interface).
    public var host: String
    /// The port to listen on; 0 lets the system choose (``PostServer/run(onListening:)`` tells which).
    public var port: Int
    /// Whether `POST`, `PUT`, `PATCH` and `DELETE` change the store; without it they answer 405.
    public var allowsWrites: Bool
    /// Which origins may read the answers in a browser; by default any while writes are off, none while they are on
    /// (a page the user visits could otherwise change the store).
    public var cors: CORS
    /// The access log's format, or `nil` for none; lines go to standard error.
    public var accessLog: AccessLogFormat?
    /// The most bytes a request's body may have (a write's post); more is a 413.
    public var maximumBodyBytes: Int
    /// The largest window a list request may ask for (`_limit`, or `_end` minus `_start`); more is a 400. A list
    /// without a window returns every post, as JSONPlaceholder does (what `poststore sync` fetches).
    public var maximumLimit: Int
    /// The most connections open at once; the server stops accepting new ones until one closes.
    public var maximumConnections: Int
    /// The most bytes of a request's header fields together; more closes the connection with a 431.
    public var maximumHeaderBytes: Int
    /// How long a connection may stay idle (no request coming in, or a request's head not yet whole) before the
    /// server closes it.
    public var idleTimeout: Duration
    /// How long a request's body may take to arrive and the store to answer it; longer is a 408 while the body has
    /// not arrived (the connection is then closed), else a 503.
    public var requestTimeout: Duration
    /// How long a stop (SIGINT, SIGTERM) waits for requests in flight before it cancels them.
    public var shutdownTimeout: Duration
    /// The store's name on the pages for people (`GET /` in a browser): its engine and location, such as
    /// `sqlite:posts.sqlite`; `poststore serve` gives the store as it was named, without a password.
    public var storeName: String
    /// The longest a changes request (`GET /posts/_changes?wait=`) is held while the store has no change for it
    /// (the idle timeout does not count a connection whose request is being answered). A stop answers the held
    /// requests at once.
    public var maximumWait: Duration

    /// Creates a configuration; see each property for its meaning.
    ///
    /// - Parameters:
    ///   - host: The address to listen on.
    ///   - port: The port to listen on.
    ///   - allowsWrites: Whether writes change the store.
    ///   - cors: Which origins may read the answers; `nil` chooses by `allowsWrites`.
    ///   - accessLog: The access log's format, or `nil` for none.
    public init(
        host: String = "127.0.0.1",
        port: Int = 3000,
        allowsWrites: Bool = false,
        cors: CORS? = nil,
        accessLog: AccessLogFormat? = .text
    ) {
        self.host = host
        self.port = port
        self.allowsWrites = allowsWrites
        self.cors = cors ?? (allowsWrites ? .off : .anyOrigin)
        self.accessLog = accessLog
        maximumBodyBytes = PayloadLimits.defaultMaximumPostBytes
        maximumLimit = 1000
        maximumConnections = 1024
        maximumHeaderBytes = 16 << 10
        idleTimeout = .seconds(60)
        requestTimeout = .seconds(30)
        shutdownTimeout = .seconds(10)
        maximumWait = .seconds(30)
        storeName = "a store"
    }

    /// Refuses settings that cannot work.
    package func validate() throws(PostStoreError) {
        func refuse(_ message: String) -> PostStoreError { PostStoreError(.invalidArgument, message) }
        guard (0...65535).contains(port) else { throw refuse("The port must be from 0 to 65535 (got \(port)).") }
        guard maximumBodyBytes >= 1 else { throw refuse("The body limit must be at least 1 byte.") }
        guard maximumLimit >= 1 else { throw refuse("The maximum _limit must be at least 1.") }
        guard maximumConnections >= 1 else { throw refuse("The connection limit must be at least 1.") }
        guard maximumHeaderBytes >= 1024 else { throw refuse("The header limit must be at least 1024 bytes.") }
        for (name, value) in [("idle", idleTimeout), ("request", requestTimeout), ("shutdown", shutdownTimeout)]
        where value <= .zero {
            throw refuse("The \(name) timeout must be positive.")
        }
        guard maximumWait >= .zero else { throw refuse("The maximum wait must be 0 or more.") }
        if case .origin(let origin) = cors, origin.isEmpty || origin.contains(where: { $0.isWhitespace }) {
            throw refuse("A CORS origin is one origin such as http://localhost:5173 (got \"\(origin)\").")
        }
    }
}
