/// How a ``ChangeWatcher`` learns that a store committed a write: a cheap mark read often, and notifications of commits
/// pushed as they happen where the engine has any. Each engine of this package has its own (``ObservedStore``).
///
/// | engine | mark | notifications |
/// | --- | --- | --- |
/// | in memory | a count of its writes | its own writes (it has no others) |
/// | SQLite | `PRAGMA data_version` on a connection of the probe's own | inotify on the file's folder |
/// | JSON file | the file's identity | inotify on the file's folder |
/// | PostgreSQL | a count of notifications | `LISTEN` on the store's channel |
package protocol CommitProbe: Sendable {
    /// A value that changes with every commit to the store that writes posts or sync states, by any process or
    /// machine, this one's included. Compared only with earlier marks of the same probe; read often, so it must
    /// cost microseconds.
    ///
    /// - Throws: What reading it throws; the watcher's waiters get the error.
    func commitMark() async throws -> Int

    /// The store's token at a mark, when a notification told it (a PostgreSQL notification carries it): the watcher
    /// then need not read it. `nil` when the mark has moved since, or the notification tells no token.
    ///
    /// - Parameter mark: A mark ``commitMark()`` returned.
    func notifiedToken(atMark mark: Int) -> ChangeToken?

    /// Starts telling of commits as they happen: `onCommit` is called soon after each (possibly a moment before
    /// its mark changes, as file events come before a SQLite commit is visible).
    ///
    /// - Parameter onCommit: What to call.
    /// - Returns: What stops the notifications, or `nil` when there is none here (the mark is then read every
    ///   ``pollInterval``).
    func startNotifications(onCommit: @escaping @Sendable () -> Void) -> (any CommitNotifications)?

    /// Whether a notification may come before its commit is visible (file events do; a PostgreSQL notification comes
    /// after the commit): the watcher then reads in a burst after a notification, rather than once.
    var notificationPrecedesCommit: Bool { get }

    /// How often the mark is read when there is no notification: the longest a write goes unseen then.
    var pollInterval: Duration { get }

    /// How often the mark is read while the notifications run and is quiet, for a commit it cannot tell (another
    /// machine writing a shared file), or `nil` when it tells every commit.
    var quietInterval: Duration? { get }
}

extension CommitProbe {
    package func notifiedToken(atMark mark: Int) -> ChangeToken? { nil }
}

/// Notifications of commits that a ``CommitProbe`` started.
package protocol CommitNotifications: Sendable {
    /// Stops the notifications: its `onCommit` may still run once while it stops, never later.
    func stop()
}

/// A store whose engine tells its watcher of commits: every engine of this package.
///
/// It keeps the one ``ChangeWatcher`` that its observers in this process share (``sharedWatcher``), and tells it of
/// each of its own commits at once.
package protocol ObservedStore: PostStoreProtocol {
    /// Where the store's shared watcher is kept while anyone observes.
    nonisolated var watcherSlot: ChangeWatcherSlot { get }

    /// A new probe of the store's commits, for a new watcher.
    nonisolated func makeCommitProbe() -> any CommitProbe
}

extension PostStoreProtocol {
    /// The one watcher that observers of this store in this process share, made when the first observer starts
    /// and released with the last one; a store of another package gets a watcher of its own per call, which reads
    /// its token and sync states every ``PollingCommitProbe/interval``.
    package var sharedWatcher: ChangeWatcher {
        guard let store = self as? any ObservedStore else {
            return ChangeWatcher(store: self, probe: PollingCommitProbe(store: self), clock: SystemClock())
        }
        return store.watcherSlot.watcher {
            ChangeWatcher(store: store, probe: store.makeCommitProbe(), clock: SystemClock())
        }
    }
}
