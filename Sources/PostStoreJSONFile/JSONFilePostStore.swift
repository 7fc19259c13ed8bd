import Foundation
@_spi(FileSystem) public import PostStore
package import PostStoreEngines

/// A store in one human-readable JSON file (see `JSONStoreDocument` for the format).
///
/// The engine for small data sets you want to read, diff or commit. Every write takes an advisory lock on a
/// sidecar file (`PATH.lock`), re-reads the file so that no other process's update is lost, and replaces the file
/// atomically: the new document goes to a temporary file in the same folder (`.NAME.tmp-…`), is flushed to disk and
/// renamed over the old one, so a crash or a full disk leaves either the old or the new document, never half of
/// one. Temporary files left by a crashed writer are deleted by the next write that changes something. A file that
/// is not a valid store, or has a newer format version, is refused and never written over. One failure comes after
/// the new file is in place: flushing the folder; its error says that the change was written but may not survive a
/// power loss.
///
/// Reads parse the file again only when it has changed since the last read, a piece at a time, into the in-memory
/// table `InMemoryPostStore` keeps too: queries by user and text searches go through its index (built by the
/// first query after a read), not through every post. Each write rewrites the whole file, so this engine suits
/// thousands of posts, or a store that is mostly read, not millions written often: use `SQLitePostStore` for
/// those.
///
/// An actor on a dispatch queue of its own: its file reads, writes, flushes and lock tries block that queue's
/// thread, never one of Swift's cooperative pool, and callers suspend meanwhile. Calls on one store take turns.
///
/// For example:
///
/// ```swift
/// let store = try JSONFilePostStore(path: "posts.json")
/// try await store.upsert(posts)
/// ```
public actor JSONFilePostStore: PostStoreProtocol {
    /// The store's file, as given.
    public nonisolated let path: String

    private nonisolated let executor = DispatchQueueExecutor(label: "poststore.json-file")
    /// The store's own queue, where all its file work runs.
    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    /// The file itself: `path` with symbolic links resolved, so writes replace the file a link points to rather
    /// than the link, and every path to one file shares one lock.
    package nonisolated let file: String

    package nonisolated let fileSystem: any FileSystemProtocol
    private let clock: any ClockProtocol
    private let lockTimeout: Duration
    private var cache: Loaded?
    /// The watcher this store's observers share.
    package nonisolated let watcherSlot = ChangeWatcherSlot()

    /// The file as last read or written: which version of it, what it holds, and the format version it records.
    private struct Loaded {
        let identity: FileIdentity
        /// Changed only by queries, which bring the posts' index up to date.
        var contents: StoreContents
        let formatVersion: Int
    }

    /// Whether the file did not exist at opening and another process held the lock, so this store's first write
    /// creates it; until then a missing file reads as an empty store.
    private var awaitingCreation = false

    /// Opens the store at `path`.
    ///
    /// - Parameters:
    ///   - path: The JSON file.
    ///   - mode: With ``StoreOpenMode/createIfMissing`` a missing file is created as an empty store (by the first
    ///     write instead, without waiting, when another process holds the lock); with
    ///     ``StoreOpenMode/openExisting`` it is an error.
    ///   - lockTimeout: How long a write waits for another process's write to finish.
    ///   - fileSystem: Where the file lives; tests inject one that fails chosen steps.
    ///   - clock: What a write waiting for another process's lock measures and sleeps on.
    /// - Throws: ``PostStoreError``: `storeNotFound`, `corruptStore`, `unsupportedVersion`, `ioFailure`,
    ///   `storeBusy`.
    package init(
        path: String,
        mode: StoreOpenMode,
        lockTimeout: Duration,
        fileSystem: any FileSystemProtocol,
        clock: any ClockProtocol
    ) throws {
        try PathCheck.validate(path, naming: "The JSON store's path")
        let file = try Self.onlyPostStoreErrors(path) { try fileSystem.resolvingSymbolicLinks(inPath: path) }
        self.path = path
        self.file = file
        self.fileSystem = fileSystem
        self.clock = clock
        self.lockTimeout = lockTimeout
        var awaitingCreation = false
        cache = try Self.onlyPostStoreErrors(path) {
            if try fileSystem.identityOfFile(atPath: file) == nil {
                guard mode == .createIfMissing else {
                    throw PostStoreError(.storeNotFound, "There is no JSON store at \(path).", path: path)
                }
                // Creating the file takes the lock. Opening never waits for it: if another process holds it (it is
                // creating or writing the store), this store's first write creates the file instead.
                guard let lock = try fileSystem.tryLockExclusively(onFile: file + ".lock") else {
                    awaitingCreation = true
                    return nil
                }
                defer { lock.unlock() }
                if try fileSystem.identityOfFile(atPath: file) == nil {
                    try Self.replaceFile(file, naming: path, with: StoreContents(), in: fileSystem)
                    try Self.synchronizeFolder(of: file, naming: path, in: fileSystem)
                }
            }
            return try Self.read(file, naming: path, fileSystem, cached: nil)
        }
        self.awaitingCreation = awaitingCreation
    }

    @discardableResult
    public func apply(_ changes: PostChangeSet) async throws -> WriteSummary {
        try await write { contents in try contents.apply(changes) }
    }

    public func preview(_ changes: PostChangeSet) throws -> WriteSummary {
        try current().preview(changes)
    }

    public func post(id: Int) throws -> Post? {
        try current().posts[id]
    }

    public func query(_ query: PostQuery) throws -> [Post] {
        try withCurrent { try $0.query(query) }
    }

    public func count() throws -> Int {
        try current().posts.count
    }

    public func removeAll() async throws {
        try await write { contents in contents.removeAll() }
    }

    public func changeToken() async throws -> ChangeToken {
        try current().history.token
    }

    public func changes(since token: ChangeToken?, limit: Int) async throws -> PostChanges {
        try current().changes(since: token, limit: limit)
    }

    public func syncState(for source: String) throws -> SyncState? {
        try current().syncState(for: source)
    }

    public func syncStates() throws -> [SyncState] {
        try current().orderedSyncStates
    }

    // MARK: - Reading and writing the file

    /// The file's contents, parsed again only when the file changed since the last read.
    private func current() throws -> StoreContents {
        try currentWithFormatVersion().contents
    }

    /// The file's contents and the format version it records, both from one read; the version is `nil` while the
    /// file does not exist yet (another process was creating it when this store opened).
    private func currentWithFormatVersion() throws -> (contents: StoreContents, formatVersion: Int?) {
        guard try refreshCache(), let cache else { return (Self.contentsBeforeCreation, nil) }
        return (cache.contents, cache.formatVersion)
    }

    /// Runs `read` on the file's contents where the cache holds them, so that the index a query brings up to date
    /// is there for the next query of the same version of the file.
    private func withCurrent<Result>(_ read: (inout StoreContents) throws -> Result) throws -> Result {
        guard try refreshCache(), cache != nil else {
            var empty = Self.contentsBeforeCreation
            return try read(&empty)
        }
        return try read(&cache!.contents)
    }

    /// Reads the file into the cache when it changed since the last read; `false`, leaving the cache, while the
    /// file does not exist yet (another process was creating it when this store opened).
    private func refreshCache() throws -> Bool {
        if awaitingCreation {
            if try Self.onlyPostStoreErrors(path, { try fileSystem.identityOfFile(atPath: file) }) == nil {
                return false
            }
            awaitingCreation = false
        }
        cache = try Self.onlyPostStoreErrors(path) {
            try Self.read(file, naming: path, fileSystem, cached: cache)
        }
        return true
    }

    /// What the store reads as while its file does not exist yet: no posts, and the same identity on every read,
    /// until the file exists and has its own.
    private static var contentsBeforeCreation: StoreContents {
        var empty = StoreContents()
        empty.history = ChangeHistory(storeID: empty.postsDigest)
        return empty
    }

    /// Runs `change` on the newest contents under the write lock, and replaces the file when it changed anything.
    ///
    /// The file is always read afresh under the lock, never taken from the cache: on a file system with coarse
    /// timestamps another process's write could leave the identity unchanged. When `change` leaves the contents as
    /// they were, the file is not written, so an unchanged re-sync touches nothing.
    /// The wait for the lock suspends between tries; once the lock is held, everything up to its release runs
    /// without suspending, so no other call on this actor can interleave.
    private func write<Result>(_ change: (inout StoreContents) throws -> Result) async throws -> Result {
        let lock = try await lockSuspending()
        defer { lock.unlock() }
        return try Self.onlyPostStoreErrors(path) {
            let fresh: (identity: FileIdentity?, contents: StoreContents)
            if awaitingCreation, try fileSystem.identityOfFile(atPath: file) == nil {
                fresh = (nil, StoreContents())
            } else {
                let read = try Self.read(file, naming: path, fileSystem, cached: nil)
                fresh = (read.identity, read.contents)
                cache = read
                awaitingCreation = false
            }
            var contents = fresh.contents
            let result = try change(&contents)
            guard contents != fresh.contents || fresh.identity == nil else { return result }
            // The file is replaced by a rename, which only the folder's permissions govern; a read-only store file
            // says "do not change me", so honour it as SQLite does.
            guard fileSystem.isWritableFile(atPath: file) else {
                throw PostStoreError(
                    .ioFailure,
                    "The JSON store \(path) is read-only; nothing was written.",
                    path: path
                )
            }
            try Self.removeStaleTemporaryFiles(of: file, in: fileSystem)
            try Self.replaceFile(file, naming: path, with: contents, in: fileSystem)
            watcherSlot.storeDidCommit()
            cache = try fileSystem.identityOfFile(atPath: file).map {
                Loaded(identity: $0, contents: contents, formatVersion: JSONStoreDocument.currentVersion)
            }
            awaitingCreation = false
            try Self.synchronizeFolder(of: file, naming: path, in: fileSystem)
            return result
        }
    }

    /// Reads `file`, naming the store `path` in errors (the user's path, not the file a link resolves to).
    private static func read(
        _ file: String,
        naming path: String,
        _ fileSystem: any FileSystemProtocol,
        cached: Loaded?
    ) throws -> Loaded {
        let identity = try fileSystem.identityOfFile(atPath: file)
        if let cached, cached.identity == identity { return cached }
        guard let identity, let opened = try fileSystem.openFileForReading(atPath: file) else {
            throw PostStoreError(.storeNotFound, "The JSON store \(path) was deleted while it was open.", path: path)
        }
        let document = try JSONStoreDocument.decode(opened, path: path)
        return Loaded(identity: identity, contents: document.contents, formatVersion: document.formatVersion)
    }

    /// Runs file work, turning any error that is not a ``PostStoreError`` (an injected file system may throw one)
    /// into an ``PostStoreError/Code/ioFailure``, so callers see only the one error type.
    private static func onlyPostStoreErrors<Result>(_ path: String, _ body: () throws -> Result) throws -> Result {
        do {
            return try body()
        } catch let error as PostStoreError {
            throw error
        } catch {
            throw PostStoreError(.ioFailure, "Reading or writing \(path) failed: \(error).", path: path, cause: error)
        }
    }

    /// Takes the write lock, waiting up to the lock timeout; the wait suspends (1 ms, doubling up to 50 ms)
    /// instead of blocking a thread of Swift's shared pool.
    private func lockSuspending() async throws -> any FileLock {
        let deadline = clock.uptime() + lockTimeout
        var pause = Duration.milliseconds(1)
        while true {
            if let lock = try Self.onlyPostStoreErrors(
                path,
                { try fileSystem.tryLockExclusively(onFile: file + ".lock") }
            ) {
                return lock
            }
            let now = clock.uptime()
            guard now < deadline else { throw Self.busy(path, lockTimeout) }
            try await clock.sleep(for: min(pause, deadline - now))
            pause = min(pause * 2, .milliseconds(50))
        }
    }

    private static func busy(_ path: String, _ timeout: Duration) -> PostStoreError {
        PostStoreError(
            .storeBusy,
            "Another process has held the lock \(path).lock for longer than \(timeout); try again later.",
            path: path + ".lock"
        )
    }

    /// Writes a temporary file beside `file`, flushes it and renames it over `file`; on failure removes it and
    /// leaves `file` as it was. Errors name the store `path`.
    private static func replaceFile(
        _ file: String,
        naming path: String,
        with contents: StoreContents,
        in fileSystem: any FileSystemProtocol
    ) throws {
        let (folder, name) = file.folderPathAndName
        let temporary = folder + "/" + temporaryPrefix(of: name) + UUID().uuidString
        // The new file keeps the old one's permissions, so a private store stays private.
        let permissions = try fileSystem.identityOfFile(atPath: file)?.permissions
        do {
            try fileSystem.writeNewFile(
                atPath: temporary,
                contents: JSONStoreDocument.encode(contents),
                permissions: permissions
            )
            try fileSystem.synchronizeFile(atPath: temporary)
            try fileSystem.moveItem(atPath: temporary, toPath: file)
        } catch {
            try? fileSystem.removeFile(atPath: temporary)
            // The temporary file is gone; name the store and the system's reason instead.
            guard let error = error as? PostStoreError, let reason = error.cause as? SystemError else { throw error }
            throw PostStoreError(
                .ioFailure,
                "Writing the JSON store \(path) failed: \(reason); it was left as it was.",
                path: path,
                cause: reason
            )
        }
    }

    /// Flushes the folder after a rename, so the new file survives a power loss. A failure here comes after the
    /// new file is in place, so its message says so, naming the store `path`.
    private static func synchronizeFolder(
        of file: String,
        naming path: String,
        in fileSystem: any FileSystemProtocol
    ) throws {
        do {
            try fileSystem.synchronizeDirectory(atPath: file.folderPathAndName.folder)
        } catch {
            throw PostStoreError(
                .ioFailure,
                "The JSON store \(path) was written, but flushing its folder to disk failed, so the change may not "
                    + "survive a power loss.",
                path: path,
                cause: error
            )
        }
    }

    /// Deletes temporary files a crashed writer left; only called under the write lock, when no writer is active.
    private static func removeStaleTemporaryFiles(of path: String, in fileSystem: any FileSystemProtocol) throws {
        let (folder, name) = path.folderPathAndName
        let prefix = temporaryPrefix(of: name)
        // Bytes, not `hasPrefix`: that compares canonically, and would take another store's `e\u{301}` for our `é`.
        for entry in try fileSystem.contentsOfDirectory(atPath: folder) where entry.utf8.starts(with: prefix.utf8) {
            try fileSystem.removeFile(atPath: folder + "/" + entry)
        }
    }

    private static func temporaryPrefix(of name: String) -> String { ".\(name).tmp-" }
}

extension JSONFilePostStore: ChangeHistoryKeeping {
    public func changeHistory() throws -> ChangeHistorySummary {
        try current().history.summary
    }

    public func setChangeHistoryLimit(_ writes: Int) async throws {
        try ChangeHistory.validate(historyLimit: writes)
        try await write { contents in try contents.history.setLimit(writes) }
    }
}

extension JSONFilePostStore: PostPageReading {
    package func revision() throws -> String {
        try current().history.token.description
    }

    package func page(_ query: PostQuery) throws -> PostPage {
        // One read of the file for the page and its revision.
        try withCurrent { try $0.page(query) }
    }
}

extension JSONFilePostStore: StoreDescribing {
    /// The post count, the sync states (newest first) and the format version the file records, all from one read
    /// of the file. The version is the file's own, which differs from ``JSONStoreDocument/currentVersion`` for a
    /// file an older build wrote and this one has not written yet; it is `nil` while the file does not exist yet.
    ///
    /// - Throws: ``PostStoreError``, as every read: `corruptStore`, `unsupportedVersion`, `storeNotFound`,
    ///   `ioFailure`.
    package func describe() throws -> StoreDescription {
        // One read of the file: one whole document.
        let (contents, formatVersion) = try currentWithFormatVersion()
        return StoreDescription(
            count: contents.posts.count,
            syncStates: contents.orderedSyncStates,
            formatVersion: formatVersion
        )
    }
}

extension JSONFilePostStore: NonblockingStore {}
