/// A file open for reading from start to end, a piece at a time (see
/// ``FileSystemProtocol/openFileForReading(atPath:)``); closed when released.
@_spi(FileSystem) public protocol ReadableFile: AnyObject {
    /// Reads the next bytes.
    ///
    /// - Parameter buffer: Where the bytes go.
    /// - Returns: How many bytes were read: 0 at the end of the file, else at least one.
    /// - Throws: ``PostStoreError``.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int

    /// How many bytes the file holds, when that is known before reading it (a regular file's size); for progress.
    var size: Int? { get }
}

extension ReadableFile {
    /// Not known: a pipe, a socket, or a file that does not say.
    public var size: Int? { nil }
}
