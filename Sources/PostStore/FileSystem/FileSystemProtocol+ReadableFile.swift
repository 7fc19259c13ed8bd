extension FileSystemProtocol {
    /// Reads the whole file through ``contentsOfFile(atPath:)``, for file systems that can only read whole files;
    /// ``LocalFileSystem`` reads in pieces.
    @_spi(FileSystem) public func openFileForReading(atPath path: String) throws -> (any ReadableFile)? {
        try contentsOfFile(atPath: path).map(DataReadableFile.init)
    }
}
