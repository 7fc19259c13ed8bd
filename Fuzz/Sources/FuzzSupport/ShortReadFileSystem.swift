package import Foundation
@_spi(FileSystem) package import PostStore
import Synchronization

/// A file system holding one file (also served as standard input) that ``FilePostDataService`` reads in short
/// pieces: each opening of the file takes the next of its read schedules, round robin.
///
/// Only what the data service calls is implemented; any other call traps, since the fuzzers never write.
package final class ShortReadFileSystem: FileSystemProtocol {
    /// The one file's path.
    package let path: String

    private let contents: Data
    private let schedules: [ReadSchedule]
    private let opens = Mutex(0)

    /// Creates a file system.
    ///
    /// - Parameters:
    ///   - path: The one file's path.
    ///   - contents: Its bytes, and standard input's.
    ///   - schedules: The read schedule of each opening in turn (at least one).
    package init(path: String, contents: Data, schedules: [ReadSchedule]) {
        precondition(!schedules.isEmpty, "A file system needs at least one read schedule.")
        self.path = path
        self.contents = contents
        self.schedules = schedules
    }

    /// How many times the file was opened.
    package var openCount: Int { opens.withLock { $0 } }

    package func openFileForReading(atPath path: String) throws -> (any ReadableFile)? {
        guard path == self.path else { return nil }
        let index = opens.withLock { count in
            defer { count += 1 }
            return count
        }
        return ShortReadFile(contents, schedule: schedules[index % schedules.count])
    }

    package func contentsOfFile(atPath path: String) throws -> Data? {
        path == self.path ? contents : nil
    }

    package func contentsOfStandardInput() throws -> Data {
        contents
    }

    package func resolvingSymbolicLinks(inPath path: String) throws -> String {
        path
    }

    package func isWritableFile(atPath path: String) -> Bool {
        false
    }

    package func identityOfFile(atPath path: String) throws -> FileIdentity? {
        guard path == self.path else { return nil }
        return FileIdentity(
            device: 1,
            inode: 1,
            size: Int64(contents.count),
            modificationNanoseconds: 0,
            permissions: 0o444
        )
    }

    package func writeNewFile(atPath path: String, contents: Data, permissions: UInt16?) throws {
        unused(#function)
    }

    package func synchronizeFile(atPath path: String) throws {
        unused(#function)
    }

    package func moveItem(atPath source: String, toPath destination: String) throws {
        unused(#function)
    }

    package func synchronizeDirectory(atPath path: String) throws {
        unused(#function)
    }

    package func removeFile(atPath path: String) throws {
        unused(#function)
    }

    package func contentsOfDirectory(atPath path: String) throws -> [String] {
        unused(#function)
    }

    package func createDirectory(atPath path: String) throws {
        unused(#function)
    }

    package func removeDirectory(atPath path: String) throws {
        unused(#function)
    }

    package func linkFile(atPath path: String, toNewPath newPath: String) throws -> Bool {
        unused(#function)
    }

    package func tryLockExclusively(onFile lockPath: String) throws -> (any FileLock)? {
        unused(#function)
    }

    private func unused(_ function: String) -> Never {
        fatalError("The fuzzers' file system does not implement \(function): a data service must not call it.")
    }
}
