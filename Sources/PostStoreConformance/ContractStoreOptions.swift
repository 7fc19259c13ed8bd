/// The settings a check asks a ``ContractSubject`` to open a store with.
///
/// Most checks use the defaults; the checks of locking ask for a short or a long lock timeout. An engine without
/// locks ignores them.
public struct ContractStoreOptions: Sendable, Hashable {
    /// How long a write waits for another process's write lock before it fails with `storeBusy`.
    public var lockTimeout: Duration

    /// Creates the settings.
    ///
    /// - Parameter lockTimeout: How long a write waits for another process's write lock; 30 seconds by default.
    public init(lockTimeout: Duration = .seconds(30)) {
        self.lockTimeout = lockTimeout
    }
}
