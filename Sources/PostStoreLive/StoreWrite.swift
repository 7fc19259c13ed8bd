import Foundation
@_spi(FileSystem) import PostStore
import PostStoreEngines

/// A write into a store that is made whole or not at all when the store does not exist yet (a first sync, a copy
/// into a new store): a file store whose file is missing is built in a staging folder beside it and published only
/// once the write is complete, and only if no store appeared there meanwhile.
///
/// Nothing at the store's path is ever deleted or replaced: a write that fails, is cancelled or is killed leaves no
/// store at all (its staging folder is deleted, by this process or by the next write of the same store), and a store
/// that another process created meanwhile is written into as any later write would be. See `NewStoreStaging` for the
/// files.
///
/// For example, a copy's write:
///
/// ```swift
/// let summary = try await StoreWrite(into: spec).run(
///     intoNewStore: { staged in try await write(open(staged)) },
///     intoExistingStore: { committed in
///         let summary = try await write(open(spec))
///         committed()
///         return summary
///     }
/// )
/// ```
package struct StoreWrite: Sendable {
    /// The store as the user named it; its folder must exist.
    package let spec: StoreSpec
    /// What the program's signal handling is told.
    package var hooks: StoreWriteHooks

    /// Creates the write of a store.
    package init(into spec: StoreSpec, hooks: StoreWriteHooks = StoreWriteHooks()) {
        self.spec = spec
        self.hooks = hooks
    }

    /// Writes into the store: staged when its file is missing, directly otherwise.
    ///
    /// - Parameters:
    ///   - intoNewStore: Writes into the staged store it is given, whose errors name the store as the user named
    ///     it; the staged store must be released (closed) when it returns.
    ///   - intoExistingStore: Writes into the store and calls the function it is given as soon as its write has
    ///     committed durably. It runs when the store exists, or when another process created it while
    ///     `intoNewStore` ran.
    /// - Returns: What the write that was published or committed returned, and whether it was a new store's.
    /// - Throws: What the writes throw, and ``PostStoreError`` when the staging folder cannot be made or the new
    ///   store cannot be published.
    package func run<Result>(
        intoNewStore: (_ staged: StoreSpec) async throws -> Result,
        intoExistingStore: (_ committed: @escaping @Sendable () -> Void) async throws -> Result
    ) async throws -> (result: Result, isNewStore: Bool) {
        guard let newStore = try NewStore.begin(spec, hooks: hooks) else {
            return (try await intoExistingStore(hooks.committed), false)
        }
        defer { newStore.discard() }
        let result = try await newStore.build { try await intoNewStore(newStore.stagedSpec) }
        if try hooks.committing({ try newStore.publish() }) { return (result, true) }
        // Another process created the store meanwhile: write into it as any later write would.
        return (try await intoExistingStore(hooks.committed), false)
    }
}

/// A new file store being built in its staging folder.
private final class NewStore {
    /// The store as the user named it.
    let spec: StoreSpec
    /// The store in its staging folder.
    let stagedSpec: StoreSpec

    private let staging: NewStoreStaging
    private let hooks: StoreWriteHooks
    /// The path as the user gave it, and the file it names (a symbolic link followed).
    private let path: String
    private let file: String

    /// Stages the store when its file is missing; `nil` when it exists or is not a file store. Staging folders that
    /// killed writes left beside an existing store are removed.
    static func begin(_ spec: StoreSpec, hooks: StoreWriteHooks) throws -> NewStore? {
        guard let path = spec.path else { return nil }
        // A symbolic link is followed, also to a file that does not exist yet: the store is built beside, and
        // published at, the file the link points to.
        let file = try localFileSystem.resolvingSymbolicLinks(inPath: path)
        guard !FileManager.default.fileExists(atPath: file) else {
            NewStoreStaging.removeAbandonedFolders(of: file, fileSystem: localFileSystem, clock: SystemClock())
            return nil
        }
        try spec.engine.checkNothingLeftBehind(file)
        return try NewStore(spec, path: path, file: file, hooks: hooks)
    }

    private init(_ spec: StoreSpec, path: String, file: String, hooks: StoreWriteHooks) throws {
        staging = try NewStoreStaging(finalPath: file, fileSystem: localFileSystem, clock: SystemClock())
        self.spec = spec
        self.path = path
        self.file = file
        self.hooks = hooks
        stagedSpec = spec.atPath(staging.storePath)
        hooks.stagingBegan(staging.storeFiles, staging.lockFile, staging.folder)
    }

    /// Runs the write into the staged store, naming the store as the user did in its errors.
    func build<Result>(_ write: () async throws -> Result) async throws -> Result {
        do {
            return try await write()
        } catch let error as PostStoreError {
            throw namingFinalPath(error)
        }
    }

    /// Finishes the staged store and publishes it; `false` when a store appeared at its path meanwhile.
    func publish() throws -> Bool {
        do {
            try spec.engine.finishStaging(staging.storePath)
            return try staging.publish()
        } catch let error as PostStoreError {
            throw namingFinalPath(error)
        }
    }

    /// Removes what is left of the staging folder.
    func discard() {
        hooks.stagingEnded()
        staging.discard()
    }

    /// The error with the staged path (and the link's target) replaced by the path the user gave.
    private func namingFinalPath(_ error: PostStoreError) -> PostStoreError {
        var message = error.message.replacingOccurrences(of: staging.storePath, with: path)
        if file != path { message = message.replacingOccurrences(of: file, with: path) }
        return PostStoreError(
            error.code,
            message,
            path: error.path.map { $0 == staging.storePath || $0 == file ? path : $0 },
            cause: error.cause
        )
    }
}
