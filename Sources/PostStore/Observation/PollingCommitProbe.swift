/// The probe of a store of another package, which tells of no commit: it reads the store's token and sync states
/// every ``interval`` and marks their digest.
package struct PollingCommitProbe: CommitProbe {
    /// How often the store is read while anyone waits.
    package static let interval = Duration.milliseconds(100)

    let store: any PostStoreProtocol

    package func commitMark() async throws -> Int {
        var hasher = Hasher()
        hasher.combine(try await store.changeToken())
        hasher.combine(try await store.syncStates())
        return hasher.finalize()
    }

    package func startNotifications(onCommit: @escaping @Sendable () -> Void) -> (any CommitNotifications)? { nil }

    package var notificationPrecedesCommit: Bool { false }

    package var pollInterval: Duration { Self.interval }

    package var quietInterval: Duration? { nil }
}
