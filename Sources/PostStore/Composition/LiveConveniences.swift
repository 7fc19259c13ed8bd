public import Foundation
import Logging

// The initializers below are the only place, besides `PostStoreDependencies.live(_:)`, where the library creates
// its live collaborators (`SystemClock`, `LocalFileSystem`, `URLSessionHTTPClient`, `SystemRandomSource`,
// swift-log's default `Logger`). Every type's own initializer takes them as protocol-typed parameters; these
// conveniences, for code that builds one object by hand, pass the live ones.

extension SQLitePostStore {
    /// Opens the store at `path` with the system clock, and applies any pending migration.
    ///
    /// For example:
    ///
    /// ```swift
    /// let store = try SQLitePostStore(path: "posts.sqlite")
    /// ```
    ///
    /// - Parameters:
    ///   - path: The database file.
    ///   - mode: Whether a missing file is created (the default) or an error.
    ///   - busyTimeout: How long an operation waits for another process's write.
    ///   - searchIndex: Whether to keep the text-search index (the default).
    /// - Throws: ``PostStoreError``, as ``init(path:mode:busyTimeout:searchIndex:clock:)``.
    public init(
        path: String,
        mode: StoreOpenMode = .createIfMissing,
        busyTimeout: Duration = .seconds(30),
        searchIndex: Bool = true
    ) throws {
        try self.init(path: path, mode: mode, busyTimeout: busyTimeout, searchIndex: searchIndex, clock: SystemClock())
    }
}

extension JSONFilePostStore {
    /// Opens the store at `path` on the local file system, with the system clock.
    ///
    /// For example:
    ///
    /// ```swift
    /// let store = try JSONFilePostStore(path: "posts.json")
    /// ```
    ///
    /// - Parameters:
    ///   - path: The JSON file.
    ///   - mode: Whether a missing file is created as an empty store (the default) or an error.
    ///   - lockTimeout: How long a write waits for another process's write to finish.
    /// - Throws: ``PostStoreError``, as ``init(path:mode:lockTimeout:fileSystem:clock:)``.
    public init(path: String, mode: StoreOpenMode = .createIfMissing, lockTimeout: Duration = .seconds(30)) throws {
        try self.init(
            path: path,
            mode: mode,
            lockTimeout: lockTimeout,
            fileSystem: LocalFileSystem(),
            clock: SystemClock()
        )
    }
}

extension FilePostDataService {
    /// Reads posts from a file on the local file system, or from standard input for `-`.
    ///
    /// For example:
    ///
    /// ```swift
    /// let service = FilePostDataService(path: "posts.json", limits: PayloadLimits(maximumPostBytes: 64 << 10))
    /// ```
    ///
    /// - Parameters:
    ///   - path: The file, or `-` for standard input.
    ///   - limits: What the service accepts: the post limit for files, both limits for standard input.
    public init(path: String, limits: PayloadLimits = PayloadLimits()) {
        self.init(path: path, limits: limits, fileSystem: LocalFileSystem())
    }
}

extension HTTPPostDataService {
    /// Fetches posts over `URLSession`, waiting on the system clock with system randomness for jitter, and logging
    /// to a `Logger` labelled `PostStore.HTTPPostDataService`.
    ///
    /// For example:
    ///
    /// ```swift
    /// let service = try HTTPPostDataService(pageSize: 50)
    /// ```
    ///
    /// - Parameters:
    ///   - url: The endpoint; `http` or `https`.
    ///   - pageSize: Posts per page (1 or more), or `nil` for one request.
    ///   - timeout: How long each request waits for its answer.
    ///   - retryPolicy: When failed requests are tried again.
    ///   - limits: How much the source may send: the most bytes per post, and for the answers of one fetch together.
    /// - Throws: ``PostStoreError/Code/invalidArgument``, as
    ///   ``init(url:pageSize:timeout:retryPolicy:limits:client:clock:random:logger:)``.
    public init(
        url: URL = defaultURL,
        pageSize: Int? = nil,
        timeout: Duration = .seconds(30),
        retryPolicy: RetryPolicy = RetryPolicy(),
        limits: PayloadLimits = PayloadLimits()
    ) throws(PostStoreError) {
        try self.init(
            url: url,
            pageSize: pageSize,
            timeout: timeout,
            retryPolicy: retryPolicy,
            limits: limits,
            client: URLSessionHTTPClient(),
            clock: SystemClock(),
            random: SystemRandomSource(),
            logger: Logger(label: "PostStore.HTTPPostDataService")
        )
    }
}

extension SyncService {
    /// Creates a service that dates and times its syncs on the system clock and logs to a `Logger` labelled
    /// `PostStore.SyncService`.
    ///
    /// - Parameters:
    ///   - dataService: Where the posts come from.
    ///   - store: Where they go.
    public init(dataService: any PostDataService, store: any PostStoreProtocol) {
        self.init(
            dataService: dataService,
            store: store,
            clock: SystemClock(),
            logger: Logger(label: "PostStore.SyncService")
        )
    }
}
