import ArgumentParser
import Foundation
import Logging
import PostStore
@_spi(ServerStore) import PostStoreEngines
import PostStoreLive

/// The options every command shares: which store, and how much to say.
struct StoreOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "\(StoreSpec.spellings), or a path ending in \(StoreSpec.fileExtensions).",
            discussion: "Default: $POSTSTORE_STORE, else $XDG_DATA_HOME/poststore/posts.sqlite "
                + "(~/.local/share/poststore/posts.sqlite). memory: lasts one command: only serve --allow-writes and "
                + "sync --dry-run take it.",
            valueName: "spec"
        )
    )
    var store: String?

    @Flag(
        name: .long,
        help: "On failure, print the error code and its cause too (with sync, also log its outcome and each retry)."
    )
    var verbose = false

    func validate() throws {
        _ = try spec()
    }

    /// The store this run uses.
    func spec() throws(ValidationError) -> StoreSpec {
        try StoreSpec.resolve(store, environment: ProcessInfo.processInfo.environment)
    }

    /// Refuses an in-memory store, which starts empty and is gone when the command ends, for a command that would
    /// read nothing from it or whose work would be lost with it.
    ///
    /// - Parameter consequence: Why, and what to do instead: "so there is nothing to query; name a file or database
    ///   store".
    func refuseInMemory(_ consequence: String) throws(ValidationError) {
        try Self.refuseInMemory(spec(), named: store == nil ? "$POSTSTORE_STORE" : "--store", consequence)
    }

    /// Refuses `spec` when its store lasts only as long as this process (an engine whose stores have no location,
    /// `memory:`).
    ///
    /// - Parameters:
    ///   - spec: The store.
    ///   - option: Where it was named: `--store`, `--to-store`, `$POSTSTORE_STORE`.
    ///   - consequence: Why it is refused, and what to do instead.
    static func refuseInMemory(_ spec: StoreSpec, named option: String, _ consequence: String) throws(ValidationError) {
        guard spec.engine.locationKind == .none else { return }
        let named = option.hasPrefix("$") ? "\(option)=\(spec)" : "\(option) \(spec)"
        throw ValidationError("An in-memory store (\(named)) starts empty and ends with the command, \(consequence).")
    }

    /// Refuses a store whose folder does not exist (or is not a folder), or whose path is a folder, before anything
    /// tries to create the store there.
    static func checkFolder(of spec: StoreSpec) throws {
        try refuseFolder(spec, openMode: .createIfMissing)
        guard let path = spec.path, let problem = StoreFolderProblem(ofStore: path) else { return }
        switch problem {
        case .missing(let folder):
            throw PostStoreError(
                .ioFailure,
                "The folder \(folder) for the store \(path) does not exist; create it first "
                    + "(mkdir -p \(folder.shellQuoted)).",
                path: folder
            )
        case .notAFolder(let folder):
            throw PostStoreError(
                .ioFailure,
                "The store \(path) cannot be created: \(folder) is not a folder.",
                path: folder
            )
        }
    }

    /// Refuses a store path that names a folder: reading finds no store there (`storeNotFound`, exit 66), and
    /// writing cannot make one (`ioFailure`, exit 74). Either engine's own error would name neither. Reading also
    /// finds no store under a path whose folder is a file (writing is refused by ``checkFolder(of:)``).
    static func refuseFolder(_ spec: StoreSpec, openMode: StoreOpenMode) throws {
        guard let path = spec.path else { return }
        if openMode == .openExisting, case .notAFolder(let folder)? = StoreFolderProblem(ofStore: path) {
            throw PostStoreError(.storeNotFound, "There is no store at \(path): \(folder) is not a folder.", path: path)
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            return
        }
        throw openMode == .openExisting
            ? PostStoreError(.storeNotFound, "The store \(path) is a folder, not a store file.", path: path)
            : PostStoreError(
                .ioFailure,
                "The store \(path) is a folder; a store is a file: name one inside it, or another path.",
                path: path
            )
    }

    /// An existing store, for the commands that only read it: opening may rebuild a search index left stale by a
    /// program that did not keep it, which is drawn as `progressOptions` say.
    static func existingStore(
        _ spec: StoreSpec,
        drawing progressOptions: ProgressOptions
    ) async throws
        -> any PostStoreProtocol
    {
        let progress = progressOptions.display()
        return try await progress.showing {
            try await store(spec, openMode: .openExisting, progress: progress.opening(spec.description))
        }
    }

    /// The store alone, for the commands that only read, copy or serve.
    ///
    /// - Parameters:
    ///   - servesRequests: Whether the store will answer a server's many short calls (a store on a database server
    ///     then keeps its connections open).
    ///   - progress: Told of long work that opening does (a stale search index rebuilt).
    static func store(
        _ spec: StoreSpec,
        openMode: StoreOpenMode,
        isStaged: Bool = false,
        servesRequests: Bool = false,
        progress: (@Sendable (WorkProgress) -> Void)? = nil
    ) async throws -> any PostStoreProtocol {
        try refuseFolder(spec, openMode: openMode)
        var configuration = PostStoreConfiguration(store: spec, openMode: openMode)
        configuration.isStaged = isStaged
        configuration.servesRequests = servesRequests
        var wiring = LiveWiring()
        wiring.openingProgress = progress
        return try await pointingAtSync(spec) {
            let store = try wiring.openStore(configuration)
            try await (store as? any ServerStore)?.migrate()
            return store
        }
    }

    /// Runs `body`, adding to a missing store's error that `poststore sync` creates it: advice that works when
    /// followed, so it makes a missing folder first, and it is not given when the store's folder is a file.
    static func pointingAtSync<Result>(_ spec: StoreSpec, _ body: () async throws -> Result) async throws -> Result {
        do {
            return try await body()
        } catch let error as PostStoreError where error.code == .storeNotFound {
            let sync = "poststore sync --store \(spec.description.shellQuoted)"
            guard let path = spec.path, let problem = StoreFolderProblem(ofStore: path) else {
                throw PostStoreError(.storeNotFound, "\(error.message) Run `\(sync)` first.", path: error.path)
            }
            let message = error.message.hasSuffix(".") ? String(error.message.dropLast()) : error.message
            switch problem {
            case .missing(let folder):
                throw PostStoreError(
                    .storeNotFound,
                    "\(message): \(problem.reason). Run `mkdir -p \(folder.shellQuoted) && \(sync)` first.",
                    path: error.path
                )
            case .notAFolder:
                throw PostStoreError(.storeNotFound, "\(message): \(problem.reason).", path: error.path)
            }
        }
    }
}
