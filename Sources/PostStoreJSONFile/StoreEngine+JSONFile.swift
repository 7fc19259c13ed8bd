import PostStore
public import PostStoreEngines

extension StoreEngine {
    /// ``JSONFilePostStore``: `json:PATH`, or a path ending in `.json`.
    public static let json = StoreEngine(
        scheme: "json",
        fileExtensions: ["json"],
        locationKind: .file,
        open: { path, options in
            try JSONFilePostStore(
                path: path ?? "",
                mode: options.mode,
                lockTimeout: options.lockTimeout,
                fileSystem: try options.fileSystem(),
                clock: try options.clock()
            )
        },
        withoutMigrationsBecause: "a JSON store's format is versioned as a whole"
    )
}
