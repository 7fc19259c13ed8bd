/// Observation of a store in memory: only this process writes it, and it tells its watcher of each write.
extension InMemoryPostStore: ObservedStore {
    package nonisolated func makeCommitProbe() -> any CommitProbe {
        InMemoryCommitProbe(store: self)
    }
}

/// The probe of an ``InMemoryPostStore``: its count of writes. Every write is told by the store itself, so the
/// notifications is none and nothing is ever read while idle.
struct InMemoryCommitProbe: CommitProbe {
    let store: InMemoryPostStore

    func commitMark() async -> Int {
        await store.commits
    }

    func startNotifications(onCommit: @escaping @Sendable () -> Void) -> (any CommitNotifications)? {
        OwnWritesOnly()
    }

    var notificationPrecedesCommit: Bool { false }

    var pollInterval: Duration { .seconds(3_600) }

    var quietInterval: Duration? { nil }

    /// A notification that never comes: every write is the store's own.
    struct OwnWritesOnly: CommitNotifications {
        func stop() {}
    }
}
