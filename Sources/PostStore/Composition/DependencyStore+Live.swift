public import Logging

extension DependencyStore {
    /// Registers the live graph of a configuration, each part a lazily created singleton: `any ClockProtocol`,
    /// `any FileSystemProtocol`, `any HTTPClient`, `any RandomSource`, `any PostStoreProtocol`,
    /// `any PostDataService` and `SyncService`.
    ///
    /// Parts are resolved from the container that resolves them, so a scope that overrides, say, the store gets a
    /// `SyncService` over its own store. The wiring is ``PostStoreDependencies/live(_:logger:)``'s, part for part.
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
        register((any PostStoreProtocol).self) { container in
            try PostStoreDependencies.makeStore(
                configuration,
                fileSystem: try container.resolve(),
                clock: try container.resolve()
            )
        }
        register((any PostDataService).self) { container in
            try PostStoreDependencies.makeDataService(
                configuration,
                client: try container.resolve(),
                fileSystem: try container.resolve(),
                clock: try container.resolve(),
                random: try container.resolve(),
                logger: logger
            )
        }
        register(SyncService.self) { container in
            SyncService(
                dataService: try container.resolve(),
                store: try container.resolve(),
                clock: try container.resolve(),
                logger: logger
            )
        }
    }
}
