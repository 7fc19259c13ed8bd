package import Logging
@_spi(FileSystem) package import PostStore

/// How the composition root asks an engine to open a store: the settings every engine understands, and the live
/// collaborators, each made only when an engine asks for it (the file engines take a clock, the JSON engine a file
/// system, an engine on a server neither).
package struct StoreOpenOptions: Sendable {
    /// Whether a missing store is created or an error.
    package var mode: StoreOpenMode
    /// How long a write waits for another process's lock.
    package var lockTimeout: Duration
    /// Whether the store is a new one built in a staging folder (``NewStoreStaging``) that no other process opens
    /// before it is published, so the engine may skip what only protects other connections (SQLite's WAL).
    package var isStaged: Bool
    /// Whether the store will answer many short calls at once, for a server (`poststore serve`): an engine on a
    /// database server then keeps its connections open.
    package var servesRequests = false
    /// What waits for locks measure and sleep on.
    package var clock: @Sendable () throws -> any ClockProtocol
    /// The file system the JSON engine reads and writes through.
    package var fileSystem: @Sendable () throws -> any FileSystemProtocol
    /// Where an engine logs what it retries; `nil` logs nothing.
    package var logger: Logger?
    /// Told of long work that opening does, such as rebuilding a stale search index.
    package var progress: @Sendable (WorkProgress) -> Void = { _ in }

    package init(
        mode: StoreOpenMode,
        lockTimeout: Duration,
        isStaged: Bool = false,
        clock: @autoclosure @escaping @Sendable () throws -> any ClockProtocol,
        fileSystem: @autoclosure @escaping @Sendable () throws -> any FileSystemProtocol,
        logger: Logger? = nil
    ) {
        self.mode = mode
        self.lockTimeout = lockTimeout
        self.isStaged = isStaged
        self.clock = clock
        self.fileSystem = fileSystem
        self.logger = logger
    }
}
