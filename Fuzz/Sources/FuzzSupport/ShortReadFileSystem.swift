public import Foundation
public import PostStore
import Synchronization

/// A file system holding one file (also served as standard input) that ``FilePostDataService`` reads in short
/// pieces: each opening of the file takes the next of its read schedules, round robin.
///
/// Only what the data service calls is implemented; any other call traps, since the fuzzers never write.
public final class ShortReadFileSystem: FileSystemProtocol {
    /// The one file's path.
    public let path: String

    private let contents: Data
    private let schedules: [ReadSchedule]
    private let opens = Mutex(0)

    /// Creates a file system.
    ///
    /// - Parameters:
    ///   - path: The one file's path.
    ///   - contents: Its bytes, and standard input's.
    ///   - schedules: The read schedule of each opening in turn (at least one).
    public init(path: String, contents: Data, schedules: [ReadSchedule]) {
        precondition(!schedules.isEmpty, "A file system needs at least one read schedule.")
        self.path = path
        self.contents = contents
        self.schedules = schedules
    }

    /// How many times the file was opened.
    public var openCount: Int { opens.withLock { $0 } }

    public func openFileForReading(atPath path: String) throws -> (any ReadableFile)? {
        guard path == self.path else { return nil }
        let index = opens.withLock { count in
            defer { count += 1 }
            return count
        }
        return ShortReadFile(contents, schedule: schedules[index % schedules.count])
    }

    public func contentsOfFile(atPath path: String) throws -> Data? {
        path == self.path ? contents : nil
    }

    public func contentsOfStandardInput() throws -> Data {
        contents
    }

    public func resolvingSymbolicLinks(inPath path: String) throws -> String {
        path
    }

    public func isWritableFile(atPath path: String) -> Bool {
        false
    }

    public func identityOfFile(atPath path: String) throws -> FileIdentity? {
        guard path == self.path else { return nil }
        return FileIdentity(
            device: 1,
            inode: 1,
            size: Int64(contents.count),
            modificationNanoseconds: 0,
            permissions: 0o444
        )
    }

    public func writeNewFile(atPath path: String, contents: Data, permissions: UInt16?) throws {
        unused(#function)
    }

    public func synchronizeFile(atPath path: String) throws {
        unused(#function)
    }

    public func moveItem(atPath source: String, toPath destination: String) throws {
        unused(#function)
    }

    public func synchronizeDirectory(atPath path: String) throws {
        unused(#function)
    }

    public func removeFile(atPath path: String) throws {
        unused(#function)
    }

    public func contentsOfDirectory(atPath path: String) throws -> [String] {
        unused(#function)
    }

    public func createDirectory(atPath path: String) throws {
        unused(#function)
    }

    public func removeDirectory(atPath path: String) throws {
        unused(#function)
    }

    public func linkFile(atPath path: String, toNewPath newPath: String) throws -> Bool {
        unused(#function)
    }

    public func tryLockExclusively(onFile lockPath: String) throws -> (any FileLock)? {
        unused(#function)
    }

    private func unused(_ function: String) -> Never {
        fatalError("The fuzzers' file system does not implement \(function): a data service must not call it.")
    }
}
