import Foundation
@_spi(FileSystem) package import PostStore

/// A new file store staged, then published under its name only if nothing has that name by then.
///
/// A first write into a missing store (a first `sync`, a `copy` into a new store) builds the store in a folder of
/// its own beside the final path, `.NAME.new-RANDOM/NAME` (NAME cut to 32 bytes in the folder's name), so that the
/// store's journal, lock and temporary files stay in there too. ``publish()`` flushes the store and links it to the final path with `link(2)`, which never
/// replaces anything: if another process created a store there meanwhile, publishing reports it and that store is
/// left untouched. Until then nothing exists at the final path, so a first write that fails, is interrupted or is
/// killed leaves no store behind, and nothing ever deletes a file at the final path.
///
/// The builder holds an advisory lock on `building.lock` in its folder for as long as it lives. A folder whose lock
/// is free (its builder was killed, or the machine stopped) holds a store that was never published, so no one's
/// data: the next write of the same store through `poststore` deletes it (``removeAbandonedFolders(of:fileSystem:clock:)``).
///
/// For example:
///
/// ```swift
/// let staging = try NewStoreStaging(finalPath: "posts.sqlite", fileSystem: localFileSystem, clock: SystemClock())
/// defer { staging.discard() }
/// try await build(SQLitePostStore(path: staging.storePath, mode: .createIfMissing))
/// if try !staging.publish() { /* another process created posts.sqlite meanwhile: write into it instead */ }
/// ```
package final class NewStoreStaging {
    /// Where the store is published.
    package let finalPath: String
    /// The folder the store is built in.
    package let folder: String
    /// Where to build the store: in ``folder``, under the final path's name.
    package let storePath: String

    private let fileSystem: any FileSystemProtocol
    private var lock: (any FileLock)?

    /// The lock file in a staging folder that its builder holds.
    private static let lockName = "building.lock"
    /// A staging folder whose lock file is younger than this is never taken for abandoned: its builder may not have
    /// locked it yet.
    private static let minimumAbandonedAge: TimeInterval = 10

    /// Creates a staging folder for the store at `finalPath`, after deleting the abandoned ones of that store.
    ///
    /// - Parameters:
    ///   - finalPath: The store's path; its folder must exist.
    ///   - fileSystem: Where the files live.
    ///   - clock: What tells an abandoned folder from one being created.
    /// - Throws: ``PostStoreError`` with code `ioFailure` when the folder cannot be created or locked.
    package init(finalPath: String, fileSystem: any FileSystemProtocol, clock: any ClockProtocol) throws {
        let name = Self.name(of: finalPath)
        Self.removeAbandonedFolders(of: finalPath, fileSystem: fileSystem, clock: clock)
        let folder = finalPath.siblingPath(Self.folderPrefix(name) + Self.randomSuffix())
        self.finalPath = finalPath
        self.folder = folder
        self.storePath = folder + "/" + name
        self.fileSystem = fileSystem
        try fileSystem.createDirectory(atPath: folder)
        do {
            lock = try fileSystem.tryLockExclusively(onFile: folder + "/" + Self.lockName)
        } catch {
            try? fileSystem.removeDirectory(atPath: folder)
            throw error
        }
    }

    deinit {
        discard()
    }

    /// Flushes the built store to the disk and gives it its final name, unless something has that name already.
    ///
    /// Call it once the store is complete and closed. Either way the staging folder is still there: ``discard()``
    /// removes it.
    ///
    /// - Returns: `true` when the store is published; `false` when something appeared at the final path since the
    ///   staging began (it is left as it is).
    /// - Throws: ``PostStoreError`` with code `ioFailure` when the store cannot be flushed or linked, or when it was
    ///   published but its folder could not be flushed (the message says so).
    package func publish() throws -> Bool {
        try fileSystem.synchronizeFile(atPath: storePath)
        guard try fileSystem.linkFile(atPath: storePath, toNewPath: finalPath) else { return false }
        let parent = finalPath.parentFolderPath
        do {
            try fileSystem.synchronizeDirectory(atPath: parent.isEmpty ? "." : parent)
        } catch let error as PostStoreError {
            throw PostStoreError(
                .ioFailure,
                "The store \(finalPath) was created, but its folder could not be flushed to the disk, so it may not "
                    + "survive a power loss: \(error.message)",
                path: finalPath,
                cause: error
            )
        }
        return true
    }

    /// Deletes the staging folder and everything in it (all of it made by this process), and releases its lock.
    /// The published store keeps its final name. Calling it again does nothing.
    package func discard() {
        guard let lock else { return }
        Self.removeContents(of: folder, fileSystem: fileSystem)
        lock.unlock()
        self.lock = nil
        try? fileSystem.removeDirectory(atPath: folder)
    }

    /// The staged store and every sidecar file an engine makes beside it (a journal, WAL and shared memory, a lock),
    /// for a signal handler to delete when the process is stopped mid-build.
    package var storeFiles: [String] {
        ["", "-journal", "-wal", "-shm", ".lock"].map { storePath + $0 }
    }

    /// The lock file the builder holds in ``folder``.
    package var lockFile: String { folder + "/" + Self.lockName }

    // MARK: - Abandoned folders

    /// Deletes the staging folders of the store at `finalPath` whose builder is gone: their lock is free and older
    /// than ten seconds. Best effort: what cannot be deleted stays for a later try. A new staging does it first;
    /// writers of an existing store call it too, so a folder left by a killed first write does not outlive them.
    ///
    /// - Parameters:
    ///   - finalPath: The store's path.
    ///   - fileSystem: Where the files live.
    ///   - clock: What tells an abandoned folder from one being created.
    package static func removeAbandonedFolders(
        of finalPath: String,
        fileSystem: any FileSystemProtocol,
        clock: any ClockProtocol
    ) {
        let parent = finalPath.parentFolderPath
        let now = clock.now()
        let entries = (try? fileSystem.contentsOfDirectory(atPath: parent.isEmpty ? "." : parent)) ?? []
        let prefixBytes = Array(folderPrefix(name(of: finalPath)).utf8)
        for entry in entries where entry.utf8.starts(with: prefixBytes) {
            let folder = finalPath.siblingPath(entry)
            let lockPath = folder + "/" + lockName
            guard
                let identity = try? fileSystem.identityOfFile(atPath: lockPath),
                now.timeIntervalSince1970 - Double(identity.modificationNanoseconds) / 1e9 >= minimumAbandonedAge,
                let lock = try? fileSystem.tryLockExclusively(onFile: lockPath)
            else { continue }
            removeContents(of: folder, fileSystem: fileSystem)
            lock.unlock()
            try? fileSystem.removeDirectory(atPath: folder)
        }
    }

    /// The last component of `path`, found in its bytes: a "/" followed by a combining mark is one `Character`.
    private static func name(of path: String) -> String {
        let bytes = path.utf8
        let start = bytes.lastIndex(of: UInt8(ascii: "/")).map { bytes.index(after: $0) } ?? bytes.startIndex
        return String(decoding: bytes[start...], as: UTF8.self)
    }

    /// What the staging folders of a store named `name` start with: its first 32 bytes at most (cut at a
    /// character's boundary). A short name keeps the staged store's path short: SQLite refuses paths of more than
    /// 512 bytes, and a folder name has at most 255. (Stores whose names begin with the same 32 bytes share the
    /// prefix, so each may delete the other's abandoned folders: never one in use, and never a published store.)
    private static func folderPrefix(_ name: String) -> String {
        var scalars = String.UnicodeScalarView()
        var bytes = 0
        for scalar in name.unicodeScalars {
            bytes += UTF8.width(scalar)
            guard bytes <= 32 else { break }
            scalars.append(scalar)
        }
        return ".\(String(scalars)).new-"
    }

    /// 12 random hexadecimal digits (48 bits): unique among the builders of one folder.
    private static func randomSuffix() -> String {
        String(UUID().uuidString.filter { $0 != "-" }.prefix(12))
    }

    /// Deletes the files in a staging folder, the lock file last.
    private static func removeContents(of folder: String, fileSystem: any FileSystemProtocol) {
        let entries = (try? fileSystem.contentsOfDirectory(atPath: folder)) ?? []
        for entry in entries where entry != lockName {
            try? fileSystem.removeFile(atPath: folder + "/" + entry)
        }
        try? fileSystem.removeFile(atPath: folder + "/" + lockName)
    }
}
