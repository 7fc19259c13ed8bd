package import Foundation
@_spi(FileSystem) package import PostStore
import Synchronization
import Testing

/// A file system that passes everything to the real one except the one step it is told to fail.
package final class FailingFileSystem: FileSystemProtocol {
    /// A step of the JSON store's atomic write.
    package enum Step: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case writeNewFile, writeNewFilePartially, synchronizeFile, moveItem, synchronizeDirectory
        /// Not a step of the write: reading fails with an error that is not a `PostStoreError`.
        case readWithForeignError
        /// Not a step of the write: the store file's permissions forbid writing (as root, real ones do not).
        case readOnlyFile

        package var testDescription: String { rawValue }
    }

    private let real = localFileSystem
    private let failing: Mutex<Step?>
    private let standardInput: Data

    /// - Parameters:
    ///   - step: The step to fail, if any.
    ///   - standardInput: What reading standard input returns.
    package init(failing step: Step? = nil, standardInput: Data = Data()) {
        failing = Mutex(step)
        self.standardInput = standardInput
    }

    /// Makes the next calls of `step` fail (or, with `nil`, none).
    package func fail(_ step: Step?) { failing.withLock { $0 = step } }

    private func check(_ step: Step, _ path: String) throws {
        if failing.withLock({ $0 }) == step {
            throw PostStoreError(.ioFailure, "Injected failure at \(step) for \(path).", path: path)
        }
    }

    package func resolvingSymbolicLinks(inPath path: String) throws -> String {
        try real.resolvingSymbolicLinks(inPath: path)
    }

    package func isWritableFile(atPath path: String) -> Bool {
        failing.withLock { $0 } != .readOnlyFile && real.isWritableFile(atPath: path)
    }

    package func contentsOfFile(atPath path: String) throws -> Data? {
        if failing.withLock({ $0 }) == .readWithForeignError { throw CocoaError(.fileReadUnknown) }
        return try real.contentsOfFile(atPath: path)
    }

    package func contentsOfStandardInput() throws -> Data { standardInput }

    package func identityOfFile(atPath path: String) throws -> FileIdentity? { try real.identityOfFile(atPath: path) }

    package func writeNewFile(atPath path: String, contents: Data, permissions: UInt16?) throws {
        try check(.writeNewFile, path)
        if failing.withLock({ $0 }) == .writeNewFilePartially {
            // A full disk: half the bytes reach the file, then the write fails.
            try real.writeNewFile(atPath: path, contents: contents.prefix(contents.count / 2), permissions: permissions)
            throw PostStoreError(.ioFailure, "Injected: no space left on device for \(path).", path: path)
        }
        try real.writeNewFile(atPath: path, contents: contents, permissions: permissions)
    }

    package func synchronizeFile(atPath path: String) throws {
        try check(.synchronizeFile, path)
        try real.synchronizeFile(atPath: path)
    }

    package func moveItem(atPath source: String, toPath destination: String) throws {
        try check(.moveItem, destination)
        try real.moveItem(atPath: source, toPath: destination)
    }

    package func synchronizeDirectory(atPath path: String) throws {
        try check(.synchronizeDirectory, path)
        try real.synchronizeDirectory(atPath: path)
    }

    package func removeFile(atPath path: String) throws { try real.removeFile(atPath: path) }

    package func contentsOfDirectory(atPath path: String) throws -> [String] {
        try real.contentsOfDirectory(atPath: path)
    }

    package func createDirectory(atPath path: String) throws { try real.createDirectory(atPath: path) }

    package func removeDirectory(atPath path: String) throws { try real.removeDirectory(atPath: path) }

    package func linkFile(atPath path: String, toNewPath newPath: String) throws -> Bool {
        try real.linkFile(atPath: path, toNewPath: newPath)
    }

    package func tryLockExclusively(onFile lockPath: String) throws -> (any FileLock)? {
        try real.tryLockExclusively(onFile: lockPath)
    }
}
