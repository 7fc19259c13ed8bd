/// An engine's write lock, held as another process would hold it, until ``release()``.
///
/// A ``ContractSubject`` returns one from ``ContractSubject/holdWriteLock(at:)``.
///
/// For example, for an engine that locks a file beside its store with `flock`:
///
/// ```swift
/// func holdWriteLock(at path: String) throws -> ContractWriteLock? {
///     let descriptor = open(path + ".lock", O_RDWR | O_CREAT, 0o644)
///     guard descriptor >= 0, flock(descriptor, LOCK_EX) == 0 else { throw MyError.lockFailed(errno) }
///     return ContractWriteLock { close(descriptor) }
/// }
/// ```
public struct ContractWriteLock: Sendable {
    private let releaseLock: @Sendable () async throws -> Void

    /// Wraps a held lock.
    ///
    /// - Parameter release: Releases the lock; a check calls it once.
    public init(release: @escaping @Sendable () async throws -> Void) {
        releaseLock = release
    }

    /// Releases the lock, so that the store's waiting writes go on.
    ///
    /// - Throws: What the subject's release throws.
    public func release() async throws {
        try await releaseLock()
    }
}
