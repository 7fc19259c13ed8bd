import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The local disk, for the engines and the command line: the core does not show its type (``LocalFileSystem``).
package let localFileSystem: any FileSystemProtocol = LocalFileSystem()

/// The live file system: POSIX calls on the local disk.
struct LocalFileSystem: FileSystemProtocol {
    /// Creates the live file system.
    init() {}

    func resolvingSymbolicLinks(inPath path: String) throws -> String {
        var path = path
        // A link to a file that does not exist yet (realpath fails on it) is followed by hand, a bounded number of
        // times, so the file is created where the link points.
        for _ in 0..<40 {
            if let resolved = realpath(path, nil) {
                defer { free(resolved) }
                return String(cString: resolved)
            }
            guard errno == ENOENT else { throw Self.failure("Cannot resolve", path) }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let length = readlink(path, &buffer, buffer.count - 1)
            guard length > 0 else { return path }  // Not a link: a file that does not exist yet.
            let target = String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            path = target.isAbsolutePath ? target : path.siblingPath(target)
        }
        throw PostStoreError(.ioFailure, "Cannot resolve \(path): too many symbolic links.", path: path)
    }

    func isWritableFile(atPath path: String) -> Bool {
        access(path, W_OK) == 0 || errno == ENOENT
    }

    func contentsOfFile(atPath path: String) throws -> Data? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        if descriptor < 0 {
            if errno == ENOENT { return nil }
            throw Self.failure("Cannot open", path)
        }
        defer { close(descriptor) }
        return try Self.readToEnd(descriptor, name: path)
    }

    func contentsOfStandardInput() throws -> Data {
        try Self.readToEnd(STDIN_FILENO, name: "standard input")
    }

    func contentsOfStandardInput(maximumBytes: Int) throws -> Data? {
        try Self.readToEnd(STDIN_FILENO, name: "standard input", maximumBytes: maximumBytes)
    }

    func openFileForReading(atPath path: String) throws -> (any ReadableFile)? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        if descriptor < 0 {
            if errno == ENOENT { return nil }
            throw Self.failure("Cannot open", path)
        }
        let file = DescriptorReadableFile(descriptor: descriptor, name: path)
        var info = stat()
        if fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
            errno = EISDIR
            throw Self.failure("Cannot read", path)
        }
        return file
    }

    /// Reads to the end; `nil` as soon as more than `maximumBytes` arrived.
    private static func readToEnd(_ descriptor: Int32, name: String, maximumBytes: Int) throws(PostStoreError) -> Data?
    {
        var result = Data()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw Self.failure("Cannot read", name)
            }
            if count == 0 { return result }
            result.append(contentsOf: buffer[0..<count])
            if result.count > maximumBytes { return nil }
        }
    }

    private static func readToEnd(_ descriptor: Int32, name: String) throws(PostStoreError) -> Data {
        try readToEnd(descriptor, name: name, maximumBytes: .max)!
    }

    func identityOfFile(atPath path: String) throws -> FileIdentity? {
        var info = stat()
        if stat(path, &info) != 0 {
            if errno == ENOENT { return nil }
            throw Self.failure("Cannot inspect", path)
        }
        #if canImport(Darwin)
        let modified = Int64(info.st_mtimespec.tv_sec) * 1_000_000_000 + Int64(info.st_mtimespec.tv_nsec)
        #else
        let modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        #endif
        return FileIdentity(
            device: UInt64(info.st_dev),
            inode: UInt64(info.st_ino),
            size: Int64(info.st_size),
            modificationNanoseconds: modified,
            permissions: UInt16(info.st_mode & 0o7777)
        )
    }

    func writeNewFile(atPath path: String, contents: Data, permissions: UInt16?) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        if descriptor < 0 { throw Self.failure("Cannot create", path) }
        defer { close(descriptor) }
        if let permissions, fchmod(descriptor, mode_t(permissions)) != 0 {
            throw Self.failure("Cannot set the permissions of", path)
        }
        try contents.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            var offset = 0
            while offset < bytes.count {
                let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw Self.failure("Cannot write", path)
                }
                offset += written
            }
        }
    }

    func synchronizeFile(atPath path: String) throws {
        try synchronize(path, flags: O_RDONLY, what: "file")
    }

    func moveItem(atPath source: String, toPath destination: String) throws {
        if rename(source, destination) != 0 {
            throw Self.failure("Cannot rename \(source) to", destination)
        }
    }

    func synchronizeDirectory(atPath path: String) throws {
        try synchronize(path, flags: O_RDONLY | O_DIRECTORY, what: "folder")
    }

    func removeFile(atPath path: String) throws {
        if unlink(path) != 0, errno != ENOENT {
            throw Self.failure("Cannot delete", path)
        }
    }

    func createDirectory(atPath path: String) throws {
        if mkdir(path, 0o700) != 0 { throw Self.failure("Cannot create the folder", path) }
    }

    func removeDirectory(atPath path: String) throws {
        if rmdir(path) != 0, errno != ENOENT { throw Self.failure("Cannot delete the folder", path) }
    }

    func linkFile(atPath path: String, toNewPath newPath: String) throws -> Bool {
        if link(path, newPath) == 0 { return true }
        if errno == EEXIST { return false }
        if errno == EPERM || errno == ENOTSUP || errno == EOPNOTSUPP {
            // FAT and exFAT: no hard links, and a plain rename could replace a file that appeared meanwhile.
            let error = SystemError(code: errno)
            throw PostStoreError(
                .ioFailure,
                "Cannot create \(newPath): its file system has no hard links (\(error)), which a new store is published "
                    + "with so that it never replaces another; put the store on another file system.",
                path: newPath,
                cause: error
            )
        }
        throw Self.failure("Cannot link \(path) to", newPath)
    }

    func contentsOfDirectory(atPath path: String) throws -> [String] {
        do {
            return try FileManager.default.contentsOfDirectory(atPath: path)
        } catch {
            throw PostStoreError(.ioFailure, "Cannot list the folder \(path).", path: path, cause: error)
        }
    }

    func tryLockExclusively(onFile lockPath: String) throws -> (any FileLock)? {
        let descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        if descriptor < 0 { throw Self.failure("Cannot open the lock file", lockPath) }
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            if errno == EINTR { continue }
            let failure = errno == EWOULDBLOCK ? nil : Self.failure("Cannot lock", lockPath)
            close(descriptor)
            if let failure { throw failure }
            return nil
        }
        return LocalFileLock(descriptor: descriptor)
    }

    private func synchronize(_ path: String, flags: Int32, what: String) throws {
        let descriptor = open(path, flags | O_CLOEXEC)
        if descriptor < 0 { throw Self.failure("Cannot open the \(what)", path) }
        defer { close(descriptor) }
        #if canImport(Darwin)
        // On Apple systems fsync only reaches the drive's cache; F_FULLFSYNC asks the drive to write it out.
        if fcntl(descriptor, F_FULLFSYNC) == 0 { return }
        #endif
        if fsync(descriptor) != 0 { throw Self.failure("Cannot flush the \(what)", path) }
    }

    /// An ``PostStoreError/Code/ioFailure`` for the current `errno`.
    private static func failure(_ action: String, _ path: String) -> PostStoreError {
        let error = SystemError(code: errno)
        return PostStoreError(.ioFailure, "\(action) \(path): \(error).", path: path, cause: error)
    }
}
