/// The probe of a store of another package, which tells of no commit: it reads the store's token and sync states
/// every ``interval`` and marks their digest.
struct PollingCommitProbe: CommitProbe {
    /// How often the store is read while anyone waits.
    static let interval = Duration.milliseconds(100)

    let store: any PostStoreProtocol

    func commitMark() async throws -> Int {
        var hasher = Hasher()
        hasher.combine(try await store.changeToken())
        hasher.combine(try await store.syncStates())
        return hasher.finalize()
    }

    func startNotifications(onCommit: @escaping @Sendable () -> Void) -> (any CommitNotifications)? { nil }

    var notificationPrecedesCommit: Bool { false }

    var pollInterval: Duration { Self.interval }

    var quietInterval: Duration? { nil }
}
