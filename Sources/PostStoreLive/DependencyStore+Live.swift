public import Logging
@_spi(FileSystem) import PostStore
public import PostStoreContainer
import PostStoreEngines
import PostStoreHTTP

extension DependencyStore {
    /// Registers the live graph of a configuration — the one place it is wired — each part a lazily created
    /// singleton: `any ClockProtocol`, `any PostStoreProtocol`, `any PostDataService` and `SyncService` (and the
    /// seams below them: the file system, the HTTP transport, randomness), and `Logger` when one is given.
    ///
    /// Each part resolves only the parts it uses (an in-memory store needs no file system and no clock), from the
    /// container that resolves it, so a scope that overrides, say, the store gets a `SyncService` over its own
    /// store, and one that overrides only the logger keeps the store. `PostStoreDependencies.live(_:logger:)`
    /// resolves its graph from this registration.
    ///
    /// For example, at launch:
    ///
    /// ```swift
    /// DependencyStore.root.registerLive(PostStoreConfiguration(store: StoreSpec(.sqlite, path: "posts.sqlite")))
    /// ```
    ///
    /// - Parameters:
    ///   - configuration: Which store, which source, timeouts and retries.
    ///   - logger: Where syncs and retries are logged; `nil` (the default) logs nothing. A scope may register one
    ///     later.
    public func registerLive(_ configuration: PostStoreConfiguration, logger: Logger? = nil) {
        register((any ClockProtocol).self) { _ in SystemClock() }
        register((any FileSystemProtocol).self) { _ in localFileSystem }
        register((any HTTPTransport).self) { _ in URLSessionHTTPTransport() }
        register((any RandomSource).self) { _ in SystemRandomSource() }
        if let logger { register(logger, for: Logger.self) }
        register((any PostStoreProtocol).self) { container in
            try container.wiring.openStore(configuration)
        }
        register((any PostDataService).self) { container in
            try container.wiring.makeDataService(configuration)
        }
        register(SyncService.self) { container in
            SyncService(
                dataService: try container.resolve(),
                store: try container.resolve(),
                clock: try container.resolve(),
                logger: container.logger
            )
        }
    }

    /// The logger registered in this container or above, if any: the library logs nowhere unless given one.
    var logger: Logger? { try? resolve(Logger.self) }

    /// The live wiring with this container's seams, each resolved only when a part asks for it (an in-memory store
    /// resolves no file system and no clock, so a scope that overrides only those keeps it).
    var wiring: LiveWiring {
        var wiring = LiveWiring()
        wiring.clock = { try self.resolve((any ClockProtocol).self) }
        wiring.fileSystem = { try self.resolve((any FileSystemProtocol).self) }
        wiring.transport = { try self.resolve((any HTTPTransport).self) }
        wiring.random = { try self.resolve((any RandomSource).self) }
        wiring.logger = { self.logger }
        return wiring
    }
}
