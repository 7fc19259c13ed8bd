public import Foundation

/// What a program wants wired: which store, which source, and the timeouts and retries between them.
///
/// ``PostStoreDependencies/live(_:logger:)`` turns it into the live object graph, and
/// ``DependencyStore/registerLive(_:logger:)`` registers the same graph in a container.
///
/// For example:
///
/// ```swift
/// let configuration = PostStoreConfiguration(
///     store: .sqlite(path: "posts.sqlite"),
///     source: .http(HTTPPostDataService.defaultURL, pageSize: 50)
/// )
/// ```
public struct PostStoreConfiguration: Sendable, Hashable {
    /// Which engine keeps the posts, and where.
    public enum Store: Sendable, Hashable {
        /// An ``InMemoryPostStore``.
        case inMemory
        /// A ``JSONFilePostStore`` at the path.
        case jsonFile(path: String)
        /// A ``SQLitePostStore`` at the path, with or without its search index.
        case sqlite(path: String, searchIndex: Bool = true)
    }

    /// Where a sync takes posts from.
    public enum Source: Sendable, Hashable {
        /// An ``HTTPPostDataService`` for the URL, paged when a page size is given.
        case http(URL, pageSize: Int? = nil)
        /// A ``FilePostDataService`` for the path (`-` for standard input).
        case file(path: String)
    }

    /// Which engine keeps the posts.
    public var store: Store
    /// Where a sync takes posts from; by default JSONPlaceholder.
    public var source: Source
    /// Whether opening a file store may create it.
    public var openMode: StoreOpenMode
    /// How long a file store's write waits for another process's lock.
    public var lockTimeout: Duration
    /// How long each HTTP request waits for its answer.
    public var requestTimeout: Duration
    /// When failed HTTP requests are tried again.
    public var retryPolicy: RetryPolicy
    /// How much the source may send: the most bytes per post and held in memory at once.
    public var limits: PayloadLimits
    /// Whether the store is a new one built in a staging folder (``NewStoreStaging``) that no other process opens
    /// before it is published, so the engine may skip what only protects other connections (SQLite's WAL).
    package var buildsOffToTheSide = false

    /// Creates a configuration.
    ///
    /// - Parameters:
    ///   - store: Which engine keeps the posts.
    ///   - source: Where a sync takes posts from.
    ///   - openMode: Whether opening a file store may create it.
    ///   - lockTimeout: How long a file store's write waits for another process's lock.
    ///   - requestTimeout: How long each HTTP request waits for its answer.
    ///   - retryPolicy: When failed HTTP requests are tried again.
    ///   - limits: How much the source may send.
    public init(
        store: Store,
        source: Source = .http(HTTPPostDataService.defaultURL),
        openMode: StoreOpenMode = .createIfMissing,
        lockTimeout: Duration = .seconds(30),
        requestTimeout: Duration = .seconds(30),
        retryPolicy: RetryPolicy = RetryPolicy(),
        limits: PayloadLimits = PayloadLimits()
    ) {
        self.store = store
        self.source = source
        self.openMode = openMode
        self.lockTimeout = lockTimeout
        self.requestTimeout = requestTimeout
        self.retryPolicy = retryPolicy
        self.limits = limits
    }
}
