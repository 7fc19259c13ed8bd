package import Logging
@_spi(FileSystem) package import PostStore
package import PostStoreEngines
package import PostStoreHTTP

/// How a configuration's parts are made: the one place the live graph is wired.
///
/// `PostStoreDependencies.live(_:logger:)` builds the graph as a value from it, and
/// `DependencyStore.registerLive(_:logger:)` registers factories that call it with the container's seams, so that a
/// scope's overrides reach the parts it makes. The command line builds its graphs here too.
package struct LiveWiring: Sendable {
    /// What dates syncs, and what the file engines' lock waits and the HTTP retries sleep on.
    package var clock: @Sendable () throws -> any ClockProtocol
    /// The file engines' and the file source's files.
    package var fileSystem: @Sendable () throws -> any FileSystemProtocol
    /// The HTTP source's requests.
    package var transport: @Sendable () throws -> any HTTPTransport = { URLSessionHTTPTransport() }
    /// The HTTP source's retry jitter.
    package var random: @Sendable () throws -> any RandomSource = { SystemRandomSource() }
    /// Where syncs, retries and server stores log; `nil` logs nothing.
    package var logger: @Sendable () -> Logger?
    /// Told of long work that opening a store does (a stale search index rebuilt).
    package var openingProgress: (@Sendable (WorkProgress) -> Void)?

    /// The live seams, each part made once (a collaborator is asked for only when a part needs it: an in-memory
    /// store needs no file system and no clock).
    package init(logger: Logger? = nil) {
        let clock = SystemClock()
        self.clock = { clock }
        fileSystem = { localFileSystem }
        self.logger = { logger }
    }

    /// Opens the configuration's store with its engine.
    package func openStore(_ configuration: PostStoreConfiguration) throws -> any PostStoreProtocol {
        let store = configuration.store
        var options = StoreOpenOptions(
            mode: configuration.openMode,
            lockTimeout: configuration.lockTimeout,
            isStaged: configuration.isStaged,
            clock: try clock(),
            fileSystem: try fileSystem(),
            logger: logger()
        )
        options.servesRequests = configuration.servesRequests
        if let openingProgress { options.progress = openingProgress }
        return try store.engine.open(store.location, options)
    }

    /// Makes the configuration's data service.
    package func makeDataService(_ configuration: PostStoreConfiguration) throws -> any PostDataService {
        try configuration.source.makeDataService(configuration, wiring: self)
    }

    /// The graph of a configuration: its store opened, its data service (or `dataService`) and a sync service
    /// between them.
    package func dependencies(
        _ configuration: PostStoreConfiguration,
        dataService: (any PostDataService)? = nil
    ) throws -> PostStoreDependencies {
        PostStoreDependencies(
            store: try openStore(configuration),
            dataService: try dataService ?? makeDataService(configuration),
            clock: try clock(),
            logger: logger()
        )
    }
}
