/// The settings a check asks a ``ContractSubject`` to open a store with.
///
/// Most checks ask for a ten-minute lock timeout, far longer than any check takes, so that a loaded machine cannot
/// fail them; the checks of locking ask for the timeouts they test. An engine without locks ignores them.
public struct ContractStoreOptions: Sendable, Hashable {
    /// How long a write waits for another process's write lock before it fails with `storeBusy`.
    public var lockTimeout: Duration

    /// Creates the settings.
    ///
    /// - Parameter lockTimeout: How long a write waits for another process's write lock; 30 seconds by default.
    public init(lockTimeout: Duration = .seconds(30)) {
        self.lockTimeout = lockTimeout
    }

    /// The settings of a check whose verdict is not a timeout: a ten-minute lock timeout.
    ///
    /// A check's instances wait for each other's writes, and how long depends on the machine, not the engine: under a
    /// thread sanitizer, with every suite of a test run at once, Swift's two threads on a small machine were busy
    /// elsewhere long enough for a 30-second wait (and a 90-second one) to fail a check that waited correctly.
    static let patient = ContractStoreOptions(lockTimeout: .seconds(600))
}
