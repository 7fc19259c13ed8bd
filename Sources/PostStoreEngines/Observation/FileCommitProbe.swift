@_spi(FileSystem) package import PostStore

/// The probe of a store kept in files of the local file system, which any process may write (SQLite, JSON file):
/// notifications from the file system (``FileChangeMonitor``, on Linux) and a mark the engine reads.
package struct FileCommitProbe: CommitProbe {
    /// How often the mark is read where the file system gives no notification (outside Linux, or past inotify's
    /// limits).
    package static let pollInterval = Duration.milliseconds(5)

    private let files: [String]
    private let mark: @Sendable () async throws -> Int

    /// - Parameters:
    ///   - files: The files that a commit by any process creates, writes or replaces (a SQLite store's file, its
    ///     `-wal` and `-journal`; a JSON store's file).
    ///   - mark: Reads the store's commit mark.
    package init(files: [String], mark: @escaping @Sendable () async throws -> Int) {
        self.files = files
        self.mark = mark
    }

    package func commitMark() async throws -> Int {
        try await mark()
    }

    package func startNotifications(onCommit: @escaping @Sendable () -> Void) -> (any CommitNotifications)? {
        FileChangeMonitor(files: files, onChange: onCommit)
    }

    package var notificationPrecedesCommit: Bool { true }

    package var pollInterval: Duration { Self.pollInterval }

    package var quietInterval: Duration? { ChangeWatcher.idleInterval }
}
