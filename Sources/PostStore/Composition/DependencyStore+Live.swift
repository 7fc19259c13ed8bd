public import Logging

extension DependencyStore {
    /// Registers the live graph of a configuration — the one place it is wired — each part a lazily created
    /// singleton: `any ClockProtocol`, `any FileSystemProtocol`, `any HTTPClient`, `any RandomSource`, `Logger`,
    /// `any PostStoreProtocol`, `any PostDataService` and `SyncService`.
    ///
    /// Each part resolves only the parts it uses (an in-memory store needs no file system and no clock), from the
    /// container that resolves it, so a scope that overrides, say, the store gets a `SyncService` over its own
    /// store, and one that overrides only the logger keeps the store. ``PostStoreDependencies/live(_:logger:)``
    /// resolves its graph from this registration.
    ///
    /// For example, at launch:
    ///
    /// ```swift
    /// DependencyStore.root.registerLive(PostStoreConfiguration(store: .sqlite(path: "posts.sqlite")))
    /// ```
    ///
    /// - Parameters:
    ///   - configuration: Which store, which source, timeouts and retries.
    ///   - logger: Where syncs and retries are logged.
    public func registerLive(_ configuration: PostStoreConfiguration, logger: Logger = Logger(label: "PostStore")) {
        register((any ClockProtocol).self) { _ in SystemClock() }
        register((any FileSystemProtocol).self) { _ in LocalFileSystem() }
        register((any HTTPClient).self) { _ in URLSessionHTTPClient() }
        register((any RandomSource).self) { _ in SystemRandomSource() }
        register(logger, for: Logger.self)
        register((any PostStoreProtocol).self) { container in
            switch configuration.store {
            case .inMemory:
                InMemoryPostStore()
            case .jsonFile(let path):
                try JSONFilePostStore(
                    path: path,
                    mode: configuration.openMode,
                    lockTimeout: configuration.lockTimeout,
                    fileSystem: try container.resolve(),
                    clock: try container.resolve()
                )
            case .sqlite(let path, let searchIndex):
                try SQLitePostStore(
                    path: path,
                    mode: configuration.openMode,
                    busyTimeout: configuration.lockTimeout,
                    searchIndex: searchIndex,
                    migrator: SQLiteMigrator(),
                    clock: try container.resolve(),
                    buildingOffToTheSide: configuration.buildsOffToTheSide
                )
            }
        }
        register((any PostDataService).self) { container in
            switch configuration.source {
            case .http(let url, let pageSize):
                try HTTPPostDataService(
                    url: url,
                    pageSize: pageSize,
                    timeout: configuration.requestTimeout,
                    retryPolicy: configuration.retryPolicy,
                    limits: configuration.limits,
                    client: try container.resolve(),
                    clock: try container.resolve(),
                    random: try container.resolve(),
                    logger: try container.resolve()
                )
            case .file(let path):
                FilePostDataService(path: path, limits: configuration.limits, fileSystem: try container.resolve())
            }
        }
        register(SyncService.self) { container in
            SyncService(
                dataService: try container.resolve(),
                store: try container.resolve(),
                clock: try container.resolve(),
                logger: try container.resolve()
            )
        }
    }
}
