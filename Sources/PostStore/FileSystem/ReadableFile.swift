import Foundation

/// A file open for reading from start to end, a piece at a time (see
/// ``FileSystemProtocol/openFileForReading(atPath:)``); closed when released.
public protocol ReadableFile: AnyObject {
    /// Reads the next bytes.
    ///
    /// - Parameter buffer: Where the bytes go.
    /// - Returns: How many bytes were read: 0 at the end of the file, else at least one.
    /// - Throws: ``PostStoreError``.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int
}

/// Bytes already in memory, read like a file: what file systems that only read whole files hand out.
final class DataReadableFile: ReadableFile {
    private let data: Data
    private var offset = 0

    init(_ data: Data) {
        self.data = data
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        let count = min(buffer.count, data.count - offset)
        let start = data.startIndex + offset
        data.copyBytes(to: buffer.bindMemory(to: UInt8.self), from: start..<(start + count))
        offset += count
        return count
    }
}

extension FileSystemProtocol {
    /// Reads the whole file through ``contentsOfFile(atPath:)``; file systems that can read in pieces do better.
    public func openFileForReading(atPath path: String) throws -> (any ReadableFile)? {
        try contentsOfFile(atPath: path).map(DataReadableFile.init)
    }

    /// Reads all of standard input through ``contentsOfStandardInput()``; file systems that can read in pieces do
    /// better.
    public func openStandardInputForReading() throws -> any ReadableFile {
        DataReadableFile(try contentsOfStandardInput())
    }
}
