/// A storage engine as a store spec names it: its scheme, the file extensions that imply it, and how the
/// composition root opens, migrates and finishes its stores.
///
/// Each engine module declares its own entry (`StoreEngine.sqlite` in `PostStoreSQLite`, `StoreEngine.jsonFile` in
/// `PostStoreJSONFile`, ``inMemory`` here), and the composition root (`PostStoreLive`) lists them in one table.
/// Nothing else names an engine: the `poststore` commands, `info`, `migrate` and the tests read the table.
///
/// For example:
///
/// ```swift
/// let spec = StoreSpec(.inMemory)
/// // spec.engine.scheme == "memory"
/// ```
public struct StoreEngine: Sendable, Hashable, CustomStringConvertible {
    /// The engine's name and the scheme a store spec names it with (`sqlite` in `sqlite:posts.sqlite`).
    public let scheme: String

    /// The file extensions, lowercase and without the dot, that name this engine in a bare path (`posts.sqlite`);
    /// empty for an engine whose stores have no file.
    public let fileExtensions: [String]

    /// Whether a store of this engine lives in a file at a path (`false` for ``inMemory``).
    public let storesInFile: Bool

    /// Opens (or creates) the store at a path: `nil` for an engine without files.
    package let open: @Sendable (_ path: String?, _ options: StoreOpenOptions) throws -> any PostStoreProtocol

    /// The schema's migrations of the store at a path, applied and pending, changing nothing; `nil` for an engine
    /// without migrations (opening a store applies its pending migrations).
    package let migrationStatus: (@Sendable (_ path: String) throws -> MigrationStatus)?

    /// Why the engine has no migrations, for `poststore migrate`; empty when it has some.
    package let withoutMigrationsBecause: String

    /// Turns a store built in a staging folder (with ``StoreOpenOptions/buildsOffToTheSide``) and closed into an
    /// ordinary one, before it is published under its name.
    package let finishBuildingOffToTheSide: @Sendable (_ path: String) throws -> Void

    /// Declares an engine.
    ///
    /// - Parameters:
    ///   - scheme: The name and the scheme of store specs.
    ///   - fileExtensions: Lowercase extensions that imply the engine.
    ///   - storesInFile: Whether a store lives in a file at a path.
    ///   - open: Opens a store.
    ///   - migrationStatus: Reads a store's migrations, or `nil`.
    ///   - withoutMigrationsBecause: Why there are none, when `migrationStatus` is `nil`.
    ///   - finishBuildingOffToTheSide: Finishes a store built off to the side.
    package init(
        scheme: String,
        fileExtensions: [String],
        storesInFile: Bool,
        open: @escaping @Sendable (_ path: String?, _ options: StoreOpenOptions) throws -> any PostStoreProtocol,
        migrationStatus: (@Sendable (_ path: String) throws -> MigrationStatus)? = nil,
        withoutMigrationsBecause: String = "",
        finishBuildingOffToTheSide: @escaping @Sendable (_ path: String) throws -> Void = { _ in }
    ) {
        self.scheme = scheme
        self.fileExtensions = fileExtensions
        self.storesInFile = storesInFile
        self.open = open
        self.migrationStatus = migrationStatus
        self.withoutMigrationsBecause = withoutMigrationsBecause
        self.finishBuildingOffToTheSide = finishBuildingOffToTheSide
    }

    /// The engine's scheme.
    public var description: String { scheme }

    /// Engines are told apart by their scheme.
    public static func == (left: StoreEngine, right: StoreEngine) -> Bool { left.scheme == right.scheme }

    public func hash(into hasher: inout Hasher) { hasher.combine(scheme) }
}

extension StoreEngine {
    /// ``InMemoryPostStore``: `memory:`, a store that lasts as long as the process.
    public static let inMemory = StoreEngine(
        scheme: "memory",
        fileExtensions: [],
        storesInFile: false,
        open: { _, _ in InMemoryPostStore() },
        withoutMigrationsBecause: "an in-memory store lasts one process"
    )
}
