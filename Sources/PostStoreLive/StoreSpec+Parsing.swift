public import PostStore
import PostStoreEngines

extension StoreSpec {
    /// Parses a store as users write it: `SCHEME:PATH` (`sqlite:posts.sqlite`, `json:posts.json`), a server's URL
    /// (`postgres://HOST/DATABASE`), `memory:`, or a path whose extension names the engine (`posts.sqlite`), read
    /// with the table of
    /// `StoreEngine.all`. Schemes and extensions are matched in either case.
    ///
    /// For example:
    ///
    /// ```swift
    /// let spec = try StoreSpec(parsing: "posts.sqlite")
    /// // spec.engine == .sqlite, spec.path == "posts.sqlite"
    /// ```
    ///
    /// - Parameter text: The spec.
    /// - Throws: `PostStoreError/Code/invalidArgument` for an unknown scheme or extension, a missing path, a
    ///   path after a scheme that takes none, or a path ending in `/` (a folder).
    public init(parsing text: String) throws(PostStoreError) {
        for engine in StoreEngine.all {
            let schemes = [engine.scheme] + engine.schemeAliases
            guard let rest = schemes.lazy.compactMap({ text.afterCaseInsensitivePrefix($0 + ":") }).first else {
                continue
            }
            if engine.locationKind == .serverURL {
                // The engine reads the URL itself when it opens the store, with the environment's defaults.
                guard rest.hasPrefix("//") else {
                    throw PostStoreError(
                        .invalidArgument,
                        "The store \"\(engine.displayLocation(text))\" is not valid: write \(engine.scheme)://HOST/DATABASE."
                    )
                }
                self.init(engine, url: text)
                return
            }
            guard engine.storesInFile else {
                guard rest.isEmpty else {
                    throw PostStoreError(
                        .invalidArgument,
                        "The store \"\(text)\" is not valid: \(engine.scheme): takes no path."
                    )
                }
                self.init(engine)
                return
            }
            self.init(engine, path: try Self.path(String(rest), in: text))
            return
        }
        if let scheme = text.scheme, let trait = StoreEngine.schemesLeftOut[scheme.lowercased()] {
            throw PostStoreError(
                .invalidArgument,
                // Not the spec itself: a server's URL may hold a password.
                "A \(scheme): store needs the \(trait) engine, which this build leaves out: enable PostStore's "
                    + "\(trait) trait (on unless the package's dependency line turns it off)."
            )
        }
        if let scheme = text.scheme {
            throw PostStoreError(
                .invalidArgument,
                "Unknown store scheme \"\(scheme):\" in \"\(text)\"; use \(Self.spellings)."
            )
        }
        // A bare path: what it is not comes first (nothing; a folder), then its extension names the engine.
        guard !text.isEmpty else { throw PostStoreError(.invalidArgument, "The store spec is empty.") }
        let fileExtension = Self.fileExtension(of: try Self.path(text, in: text)).lowercased()
        guard let engine = StoreEngine.all.first(where: { $0.fileExtensions.contains(fileExtension) }) else {
            let fileEngines = StoreEngine.all.filter(\.storesInFile)
            throw PostStoreError(
                .invalidArgument,
                "Cannot tell the engine of store \"\(text)\" from its extension; use a path ending in "
                    + Self.list(fileEngines.flatMap(\.fileExtensions).map { "." + $0 }, or: "or") + ", or write "
                    + fileEngines.map { $0.scheme + ":PATH" }.joined(separator: " or ") + "."
            )
        }
        self.init(engine, path: try Self.path(text, in: text))
    }

    /// Every spelling of a store by scheme, as help and errors list them:
    /// `sqlite:PATH, json:PATH, postgres://HOST/DB or memory:`.
    public static var spellings: String {
        list(
            StoreEngine.all.map { engine in
                switch engine.locationKind {
                case .none: engine.scheme + ":"
                case .file: engine.scheme + ":PATH"
                case .serverURL: engine.scheme + "://HOST/DB"
                }
            },
            or: "or"
        )
    }

    /// Every file extension that names an engine, with its dot: `.sqlite, .sqlite3, .db or .json`.
    public static var fileExtensions: String {
        list(StoreEngine.all.flatMap(\.fileExtensions).map { "." + $0 }, or: "or")
    }

    private static func path(_ path: String, in text: String) throws(PostStoreError) -> String {
        guard !path.isEmpty else { throw PostStoreError(.invalidArgument, "The store \"\(text)\" has no path.") }
        guard path.utf8.last != UInt8(ascii: "/") else {
            throw PostStoreError(
                .invalidArgument,
                "The store \"\(text)\" ends with a slash, which names a folder; a store is a file: drop the slash."
            )
        }
        return path
    }

    /// The extension of the path's last component (trailing slashes aside), without the dot; empty when it has none
    /// (a leading dot, as in `.json`, starts a hidden file's name, not an extension).
    private static func fileExtension(of path: String) -> Substring {
        let name = path.split(separator: "/").last ?? ""
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        return name[name.index(after: dot)...]
    }

    /// `a, b or c`.
    private static func list(_ items: [String], or word: String) -> String {
        guard items.count > 1 else { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + " \(word) " + items.last!
    }
}
