public import Foundation

/// The file-system operations the JSON-file engine and ``FilePostDataService`` need, one step each, so a test can
/// fail any single step.
///
/// ``LocalFileSystem`` is the live implementation, and both touch files (and standard input) only through this
/// protocol. Paths are plain POSIX paths. Every method throws ``PostStoreError`` (`ioFailure`, or `storeBusy` for a
/// lock) with the path and the system's reason.
@_spi(FileSystem) public protocol FileSystemProtocol: Sendable {
    /// Resolves the symbolic links in a path.
    ///
    /// - Parameter path: A path.
    /// - Returns: The path with every symbolic link in it resolved, or `path` itself when no file is there yet.
    /// - Throws: ``PostStoreError``.
    func resolvingSymbolicLinks(inPath path: String) throws -> String

    /// Whether this process may write to an existing file (its permissions allow it).
    ///
    /// - Parameter path: The file.
    /// - Returns: `false` for a read-only file; `true` otherwise, and for a file that does not exist.
    func isWritableFile(atPath path: String) -> Bool

    /// Reads a whole file.
    ///
    /// - Parameter path: The file.
    /// - Returns: Its bytes, or `nil` when there is no file at `path`.
    /// - Throws: ``PostStoreError``.
    func contentsOfFile(atPath path: String) throws -> Data?

    /// Reads standard input to its end.
    ///
    /// - Returns: Its bytes.
    /// - Throws: ``PostStoreError``.
    func contentsOfStandardInput() throws -> Data

    /// Reads standard input to its end, unless it is longer than `maximumBytes`.
    ///
    /// A default implementation reads it all with ``contentsOfStandardInput()`` and then compares.
    ///
    /// - Parameter maximumBytes: The most bytes to hold.
    /// - Returns: Its bytes, or `nil` as soon as more than `maximumBytes` arrived.
    /// - Throws: ``PostStoreError``.
    func contentsOfStandardInput(maximumBytes: Int) throws -> Data?

    /// Opens a file to read it a piece at a time, so a large file need not be held in memory whole.
    ///
    /// - Parameter path: The file.
    /// - Returns: The open file, or `nil` when there is no file at `path`.
    /// - Throws: ``PostStoreError``.
    func openFileForReading(atPath path: String) throws -> (any ReadableFile)?

    /// Returns what identifies the current version of a file.
    ///
    /// Two calls return equal identities only when the file was not replaced or modified in between (as far as the
    /// system's timestamps tell), so a reader can keep a parsed copy until the identity changes.
    ///
    /// - Parameter path: The file.
    /// - Returns: The identity, or `nil` when there is no file at `path`.
    /// - Throws: ``PostStoreError``.
    func identityOfFile(atPath path: String) throws -> FileIdentity?

    /// Creates a file that must not exist yet and writes `contents` into it (not yet flushed to disk).
    ///
    /// - Parameters:
    ///   - path: The new file.
    ///   - contents: Its bytes.
    ///   - permissions: Its permission bits exactly (for example `0o600`), or `nil` for the default `0o644` less
    ///     the process's umask.
    /// - Throws: ``PostStoreError``, for example when the disk is full.
    func writeNewFile(atPath path: String, contents: Data, permissions: UInt16?) throws

    /// Flushes a file's contents to the disk (`fsync`).
    ///
    /// - Parameter path: The file.
    /// - Throws: ``PostStoreError``.
    func synchronizeFile(atPath path: String) throws

    /// Renames a file, atomically replacing any file at the destination (`rename(2)`).
    ///
    /// - Parameters:
    ///   - source: The file to rename.
    ///   - destination: Its new path, in the same file system.
    /// - Throws: ``PostStoreError``.
    func moveItem(atPath source: String, toPath destination: String) throws

    /// Flushes a folder's entries to the disk, so a rename in it survives a power loss.
    ///
    /// - Parameter path: The folder.
    /// - Throws: ``PostStoreError``.
    func synchronizeDirectory(atPath path: String) throws

    /// Deletes a file; a file that does not exist is not an error.
    ///
    /// - Parameter path: The file.
    /// - Throws: ``PostStoreError``.
    func removeFile(atPath path: String) throws

    /// Creates a folder that must not exist yet, readable and writable by its owner only (`mkdir(2)`, mode 0700).
    ///
    /// - Parameter path: The new folder; its parent must exist.
    /// - Throws: ``PostStoreError``, also when something already has that name.
    func createDirectory(atPath path: String) throws

    /// Deletes an empty folder; a folder that does not exist is not an error.
    ///
    /// - Parameter path: The folder.
    /// - Throws: ``PostStoreError``, for example when the folder is not empty.
    func removeDirectory(atPath path: String) throws

    /// Gives a file a second name, only if nothing has that name yet (`link(2)`): an atomic "create if absent"
    /// that never replaces anything.
    ///
    /// - Parameters:
    ///   - path: The file.
    ///   - newPath: The new name, in the same file system.
    /// - Returns: `false` when something (a file, a folder, a link) already has the name `newPath`.
    /// - Throws: ``PostStoreError``, for example on a file system without hard links.
    func linkFile(atPath path: String, toNewPath newPath: String) throws -> Bool

    /// Lists a folder.
    ///
    /// - Parameter path: The folder.
    /// - Returns: The names of its entries.
    /// - Throws: ``PostStoreError``.
    func contentsOfDirectory(atPath path: String) throws -> [String]

    /// Tries to take an exclusive advisory lock on the file at `lockPath` (created when missing), without waiting.
    ///
    /// The lock excludes other processes and other open files of this process that lock the same path. Callers
    /// that must wait try again after a pause, so the wait never blocks a thread.
    ///
    /// - Parameter lockPath: The lock file.
    /// - Returns: The lock, held until it is released or deallocated; `nil` when someone else holds it.
    /// - Throws: ``PostStoreError``.
    func tryLockExclusively(onFile lockPath: String) throws -> (any FileLock)?
}

extension FileSystemProtocol {
    @_spi(FileSystem) public func contentsOfStandardInput(maximumBytes: Int) throws -> Data? {
        let data = try contentsOfStandardInput()
        return data.count > maximumBytes ? nil : data
    }
}
