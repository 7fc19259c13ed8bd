public import Logging
public import PostStore
import PostStoreContainer

extension PostStoreDependencies {
    /// Wires the live graph: opens the configured store and creates the configured data service, as
    /// `DependencyStore.registerLive(_:logger:)` wires them.
    ///
    /// - Parameters:
    ///   - configuration: Which store, which source, timeouts and retries.
    ///   - logger: Where syncs and retries are logged; `nil` (the default) logs nothing.
    /// - Returns: The graph.
    /// - Throws: `PostStoreError` from opening the store or checking the source's settings.
    public static func live(
        _ configuration: PostStoreConfiguration,
        logger: Logger? = nil
    ) throws -> PostStoreDependencies {
        let container = DependencyStore()
        container.registerLive(configuration, logger: logger)
        return PostStoreDependencies(
            store: try container.resolve(),
            dataService: try container.resolve(),
            clock: try container.resolve(),
            syncService: try container.resolve()
        )
    }
}
