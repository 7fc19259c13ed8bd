public import PostStore

/// A store on a database server, which connects on its first call: the `poststore` commands call ``migrate()``
/// right after opening, so that a missing store or an unreachable server is reported before any work starts.
///
/// `PostServer` handles a server store's requests on their connections' event loops (its calls await the network,
/// never blocking a thread). Public as SPI so that the benchmark harness, a package of its own, can serve its
/// postgres-nio floor the same way (`Benchmarks/`); not part of the library's API.
@_spi(ServerStore) public protocol ServerStore: PostStoreProtocol {
    /// Connects, and checks, creates or upgrades the store's schema as the first call would.
    func migrate() async throws
}
