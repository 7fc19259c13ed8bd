@_spi(FileSystem) import PostStore

/// Whether a store's database file is still where it was opened, shared by the store's writer and readers: a store
/// whose file was deleted or moved while open is refused from then on, since its `-wal` and `-shm` files may belong
/// to a new file by now, and answers from the old one could be wrong or fail obscurely.
///
/// A look costs a `stat` of the path, more than a lookup by id, so reads look again only once `interval` has passed
/// since the last look found the file in place: a read may answer from a file deleted less than that ago, as it
/// would have just before. Writes look every time, under the write lock. (The interval is measured on the system's
/// monotonic clock, not the store's injected one: it bounds staleness in real time, and a test clock that never
/// advances would turn it into "look once".)
final class SQLiteFileCheck: Sendable {
    private struct State {
        /// Whether a look found the file gone: from then on every call is refused.
        var hasMoved = false
        /// When a read last found the file in place.
        var lastFoundInPlace: ContinuousClock.Instant?
    }

    /// The store's path, for the error.
    let path: String
    /// How long reads trust the last look that found the file in place.
    private let interval: Duration
    /// The file when the store was opened, for connections opened later; `nil` when it could not be inspected.
    private let identity: FileIdentity?
    private let state = LockedState(State())

    /// Starts checking the file at `path`, as it is now (the store has just opened it).
    ///
    /// - Parameters:
    ///   - path: The store's database file.
    ///   - interval: How long reads trust the last look that found the file in place.
    init(path: String, interval: Duration) {
        self.path = path
        self.interval = interval
        identity = Self.identityOfFile(at: path)
    }

    /// Before a connection opens the file after the store did: refuses a file that is gone or another one than the
    /// store opened (the store's was moved and another put in its place), which the new connection would read.
    ///
    /// - Throws: ``PostStoreError`` with code `storeNotFound` when the file is not the one the store opened.
    func refuseIfReplaced() throws {
        guard let identity else { return }
        // Device and inode name the file; its size and times change with every write.
        let now = Self.identityOfFile(at: path)
        guard state.withLock({ $0.hasMoved }) || now?.device != identity.device || now?.inode != identity.inode
        else { return }
        throw refusal(nothingWritten: false)
    }

    /// Before a read: refuses a store found moved, looking through `connection` when the last look is older than
    /// the interval.
    ///
    /// - Throws: ``PostStoreError`` with code `storeNotFound` when the file was deleted or moved.
    func checkBeforeRead(_ connection: SQLiteConnection) throws {
        let now = ContinuousClock.now
        let isDue = state.withLock { state in
            state.hasMoved || state.lastFoundInPlace.map { now - $0 >= interval } ?? true
        }
        guard isDue else { return }
        try refuseIfMoved(connection, nothingWritten: false)
        state.withLock { $0.lastFoundInPlace = now }
    }

    /// Refuses a store found moved, looking through `connection` now.
    ///
    /// - Parameter nothingWritten: Whether the error says that nothing was written (a write refused).
    /// - Throws: ``PostStoreError`` with code `storeNotFound` when the file was deleted or moved.
    func refuseIfMoved(_ connection: SQLiteConnection, nothingWritten: Bool) throws {
        let hasMoved = state.withLock { $0.hasMoved } || connection.fileHasMoved()
        guard hasMoved else { return }
        throw refusal(nothingWritten: nothingWritten)
    }

    /// Marks the file moved and returns the error that says so.
    private func refusal(nothingWritten: Bool) -> PostStoreError {
        state.withLock { $0.hasMoved = true }
        let consequence = nothingWritten ? "; nothing was written" : ""
        return PostStoreError(
            .storeNotFound,
            "The SQLite store \(path) was deleted or moved while it was open\(consequence).",
            path: path
        )
    }

    private static func identityOfFile(at path: String) -> FileIdentity? {
        try? localFileSystem.identityOfFile(atPath: path)
    }
}
