package import PostStore

/// A store on a database server, which connects on its first call: the `poststore` commands call ``migrate()``
/// right after opening, so that a missing store or an unreachable server is reported before any work starts.
package protocol ServerStore: PostStoreProtocol {
    /// Connects, and checks, creates or upgrades the store's schema as the first call would.
    func migrate() async throws
}
