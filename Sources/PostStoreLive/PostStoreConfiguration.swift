import Foundation
public import PostStore
public import PostStoreHTTP

/// What a program wants wired: which store, which source, and the timeouts and retries between them.
///
/// `PostStoreDependencies/live(_:logger:)` turns it into the live object graph, and
/// `DependencyStore/registerLive(_:logger:)` registers the same graph in a container.
///
/// For example:
///
/// ```swift
/// let configuration = PostStoreConfiguration(
///     store: StoreSpec(.sqlite, path: "posts.sqlite"),
///     source: .http(HTTPPostDataService.defaultURL, pageSize: 50)
/// )
/// ```
public struct PostStoreConfiguration: Sendable, Hashable {
    /// Which engine keeps the posts.
    public var store: StoreSpec
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
    /// Whether the store is a new one built in a staging folder that no other process opens before it is
    /// published (see `StoreOpenOptions`).
    package var isStaged = false
    /// Whether the store will answer many short calls at once, for a server (see `StoreOpenOptions`).
    package var servesRequests = false

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
        store: StoreSpec,
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
