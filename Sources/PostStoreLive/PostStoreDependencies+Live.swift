public import Logging
public import PostStore

extension PostStoreDependencies {
    /// Wires the live graph: opens the configured store and creates the configured data service. The graph is a
    /// value, built once; `DependencyStore.registerLive(_:logger:)` registers the same wiring in a container for
    /// apps that resolve by type.
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
        try LiveWiring(logger: logger).dependencies(configuration)
    }
}
