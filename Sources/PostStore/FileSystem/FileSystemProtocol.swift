public import Foundation

/// The file-system operations the JSON-file engine needs, one step each, so a test can fail any single step.
///
/// ``LocalFileSystem`` is the live implementation; it is the only type in PostStore that calls the operating
/// system's file functions. Paths are plain POSIX paths. Every method throws ``PostStoreError`` with the path and
/// the system's reason.
public protocol FileSystemProtocol: Sendable {
    /// Returns `path` with every symbolic link in it resolved, or `path` itself when no file is there yet.
    func resolvingSymbolicLinks(inPath path: String) throws -> String

    /// Reads a whole file.
    ///
    /// - Parameter path: The file.
    /// - Returns: Its bytes, or `nil` when there is no file at `path`.
    func contentsOfFile(atPath path: String) throws -> Data?

    /// Returns what identifies the current version of a file, or `nil` when there is none.
    ///
    /// Two calls return equal identities only when the file was not replaced or modified in between (as far as the
    /// system's timestamps tell), so a reader can keep a parsed copy until the identity changes.
    func identityOfFile(atPath path: String) throws -> FileIdentity?

    /// Creates a file that must not exist yet and writes `contents` into it (not yet flushed to disk).
    ///
    /// - Parameters:
    ///   - path: The new file.
    ///   - contents: Its bytes.
    ///   - permissions: Its permission bits exactly (for example `0o600`), or `nil` for the default `0o644` less
    ///     the process's umask.
    func writeNewFile(atPath path: String, contents: Data, permissions: UInt16?) throws

    /// Flushes a file's contents to the disk (`fsync`).
    func synchronizeFile(atPath path: String) throws

    /// Renames a file, atomically replacing any file at the destination (`rename(2)`).
    func moveItem(atPath source: String, toPath destination: String) throws

    /// Flushes a folder's entries to the disk, so a rename in it survives a power loss.
    func synchronizeDirectory(atPath path: String) throws

    /// Deletes a file; a file that does not exist is not an error.
    func removeFile(atPath path: String) throws

    /// The names of the entries of a folder.
    func contentsOfDirectory(atPath path: String) throws -> [String]

    /// Runs `body` while holding an exclusive advisory lock on the file at `lockPath` (created when missing).
    ///
    /// The lock excludes other processes and other open files of this process that lock the same path. Waits at
    /// most `timeout` for it.
    ///
    /// - Throws: ``PostStoreError/Code/storeBusy`` when the lock is still held by someone else after `timeout`,
    ///   and whatever `body` throws.
    func withExclusiveLock<Result>(
        onFile lockPath: String,
        timeout: Duration,
        _ body: () throws -> Result
    ) throws -> Result
}

/// What identifies one version of a file: its device, inode, size and modification time; and its permissions.
public struct FileIdentity: Sendable, Hashable {
    /// The device the file is on.
    public var device: UInt64
    /// The file's inode; a rename over the file gives a new one.
    public var inode: UInt64
    /// The file's size in bytes.
    public var size: Int64
    /// The modification time, in nanoseconds since 1970.
    public var modificationNanoseconds: Int64
    /// The permission bits, for example `0o644`.
    public var permissions: UInt16

    /// Creates an identity.
    public init(device: UInt64, inode: UInt64, size: Int64, modificationNanoseconds: Int64, permissions: UInt16) {
        self.device = device
        self.inode = inode
        self.size = size
        self.modificationNanoseconds = modificationNanoseconds
        self.permissions = permissions
    }
}
