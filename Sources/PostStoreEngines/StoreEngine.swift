package import PostStore

/// A storage engine as a store spec names it: its scheme, the file extensions that imply it, and how the
/// composition root opens, migrates and finishes its stores.
///
/// Each engine module declares its own entry (`StoreEngine.sqlite` in `PostStoreSQLite`, `StoreEngine.json` in
/// `PostStoreJSONFile`, ``memory`` here, for the core's in-memory engine), and the composition root (`PostStoreLive`) lists them in one table.
/// Nothing else names an engine: the `poststore` commands, `info`, `migrate` and the tests read the table.
///
/// For example:
///
/// ```swift
/// let spec = StoreSpec(.memory)
/// // spec.engine.scheme == "memory"
/// ```
public struct StoreEngine: Sendable, Hashable, CustomStringConvertible {
    /// The engine's name and the scheme a store spec names it with (`sqlite` in `sqlite:posts.sqlite`).
    public let scheme: String

    /// The file extensions, lowercase and without the dot, that name this engine in a bare path (`posts.sqlite`);
    /// empty for an engine whose stores have no file.
    public let fileExtensions: [String]

    /// Where a store of this engine is: nowhere (in memory), a file, or a database server named by a URL.
    package let locationKind: StoreLocationKind

    /// Other schemes that name this engine (`postgresql` beside `postgres`).
    package let schemeAliases: [String]

    /// Whether a store of this engine lives in a file at a path (`false` for ``memory`` and for a server's).
    public var storesInFile: Bool { locationKind == .file }

    /// Opens (or creates) the store at a location (a path or a URL): `nil` for an engine without one. An engine
    /// whose stores are on a server connects on the store's first call.
    package let open: @Sendable (_ location: String?, _ options: StoreOpenOptions) throws -> any PostStoreProtocol

    /// The schema's migrations of the store at a location, applied and pending, changing nothing; `nil` for an
    /// engine without migrations (opening a store applies its pending migrations, at once or on its first call).
    package let migrationStatus: (@Sendable (_ location: String) async throws -> MigrationStatus)?

    /// The location as messages and `info` show it: a server URL without its password.
    package let displayLocation: @Sendable (_ location: String) -> String

    /// Why the engine has no migrations, for `poststore migrate`; empty when it has some.
    package let withoutMigrationsBecause: String

    /// Turns a store built in a staging folder (with ``StoreOpenOptions/isStaged``) and closed into an
    /// ordinary one, before it is published under its name.
    package let finishStaging: @Sendable (_ path: String) throws -> Void

    /// Throws when a new store at a path where no store file is would take in what an earlier store left there (a
    /// SQLite write-ahead log whose database file was deleted); does nothing for most engines.
    package let checkNothingLeftBehind: @Sendable (_ path: String) throws -> Void

    /// Throws for a post the engine's stores refuse whole (PostgreSQL: a NUL character), naming it by its place among
    /// a write's posts; does nothing for most engines. A dry run into a store that does not exist yet checks the
    /// source's posts with it, as the store's first write would.
    package let checkKeepable: @Sendable (_ post: Post, _ index: Int) throws -> Void

    /// Declares an engine.
    ///
    /// - Parameters:
    ///   - scheme: The name and the scheme of store specs.
    ///   - fileExtensions: Lowercase extensions that imply the engine.
    ///   - schemeAliases: Other schemes that name it.
    ///   - locationKind: Where a store is.
    ///   - open: Opens a store.
    ///   - migrationStatus: Reads a store's migrations, or `nil`.
    ///   - displayLocation: Shows a location in messages; by default as it is.
    ///   - withoutMigrationsBecause: Why there are none, when `migrationStatus` is `nil`.
    ///   - finishStaging: Finishes a store staged.
    ///   - checkNothingLeftBehind: Refuses a path where an earlier store left files a new one would take in.
    ///   - checkKeepable: Refuses a post the engine's stores cannot keep.
    package init(
        scheme: String,
        schemeAliases: [String] = [],
        fileExtensions: [String],
        locationKind: StoreLocationKind,
        open: @escaping @Sendable (_ location: String?, _ options: StoreOpenOptions) throws -> any PostStoreProtocol,
        migrationStatus: (@Sendable (_ location: String) async throws -> MigrationStatus)? = nil,
        displayLocation: @escaping @Sendable (_ location: String) -> String = { $0 },
        withoutMigrationsBecause: String = "",
        finishStaging: @escaping @Sendable (_ path: String) throws -> Void = { _ in },
        checkNothingLeftBehind: @escaping @Sendable (_ path: String) throws -> Void = { _ in },
        checkKeepable: @escaping @Sendable (_ post: Post, _ index: Int) throws -> Void = { _, _ in }
    ) {
        self.scheme = scheme
        self.schemeAliases = schemeAliases
        self.fileExtensions = fileExtensions
        self.locationKind = locationKind
        self.open = open
        self.migrationStatus = migrationStatus
        self.displayLocation = displayLocation
        self.withoutMigrationsBecause = withoutMigrationsBecause
        self.finishStaging = finishStaging
        self.checkNothingLeftBehind = checkNothingLeftBehind
        self.checkKeepable = checkKeepable
    }

    /// The engine's scheme.
    public var description: String { scheme }

    /// Engines are told apart by their scheme.
    public static func == (left: StoreEngine, right: StoreEngine) -> Bool { left.scheme == right.scheme }

    public func hash(into hasher: inout Hasher) { hasher.combine(scheme) }
}

/// Where an engine keeps a store, which decides how a store spec names it.
package enum StoreLocationKind: Sendable, Hashable {
    /// Nowhere outside the process: `memory:`.
    case none
    /// A file: `sqlite:PATH`, or a path with the engine's extension.
    case file
    /// A database server, named by a URL that starts with the scheme: `postgres://HOST/DB`.
    case serverURL
}
