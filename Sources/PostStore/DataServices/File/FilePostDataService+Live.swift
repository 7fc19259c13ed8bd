extension FilePostDataService {
    /// Reads posts from a file on the local file system, or from standard input for `-`.
    ///
    /// For example:
    ///
    /// ```swift
    /// let service = FilePostDataService(path: "posts.json", limits: PayloadLimits(maximumPostBytes: 64 << 10))
    /// ```
    ///
    /// - Parameters:
    ///   - path: The file, or `-` for standard input.
    ///   - limits: What the service accepts: the post limit for files, both limits for standard input.
    public init(path: String, limits: PayloadLimits = PayloadLimits()) {
        self.init(path: path, limits: limits, fileSystem: LocalFileSystem())
    }
}
