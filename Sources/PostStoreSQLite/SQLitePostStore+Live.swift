public import PostStore

extension SQLitePostStore {
    /// Opens the store at `path` with the system clock, and applies any pending migration.
    ///
    /// For example:
    ///
    /// ```swift
    /// let store = try SQLitePostStore(path: "posts.sqlite")
    /// ```
    ///
    /// - Parameters:
    ///   - path: The database file.
    ///   - mode: Whether a missing file is created (the default) or an error.
    ///   - busyTimeout: How long an operation waits for another process's write.
    ///   - searchIndex: Whether to keep the text-search index (the default).
    /// - Throws: `PostStoreError`, as ``init(path:mode:busyTimeout:searchIndex:clock:)``.
    public init(
        path: String,
        mode: StoreOpenMode = .createIfMissing,
        busyTimeout: Duration = .seconds(30),
        searchIndex: Bool = true
    ) throws {
        try self.init(path: path, mode: mode, busyTimeout: busyTimeout, searchIndex: searchIndex, clock: SystemClock())
    }
}
