public import PostStore

extension JSONFilePostStore {
    /// Opens the store at `path` on the local file system, with the system clock.
    ///
    /// For example:
    ///
    /// ```swift
    /// let store = try JSONFilePostStore(path: "posts.json")
    /// ```
    ///
    /// - Parameters:
    ///   - path: The JSON file.
    ///   - mode: Whether a missing file is created as an empty store (the default) or an error.
    ///   - lockTimeout: How long a write waits for another process's write to finish.
    /// - Throws: `PostStoreError`, as `init(path:mode:lockTimeout:fileSystem:clock:)`.
    public init(path: String, mode: StoreOpenMode = .createIfMissing, lockTimeout: Duration = .seconds(30)) throws {
        try self.init(
            path: path,
            mode: mode,
            lockTimeout: lockTimeout,
            fileSystem: localFileSystem,
            clock: SystemClock()
        )
    }
}
