import Foundation
@_spi(FileSystem) import PostStore
import PostStoreEngines
import PostStoreLive

/// A write into a file store that does not exist yet (a first `sync`, a `copy` into a new store): the store is
/// staged and published only once complete, and only if no store appeared there meanwhile.
///
/// Nothing at the store's path is ever deleted or replaced: a write that fails, is interrupted or is killed leaves
/// no store at all (its staging folder is deleted, by this process or by the next write of the same store),
/// and a store that another process created meanwhile is written into as any later write would be. See
/// `NewStoreStaging` in the library for the files.
final class NewStoreWrite {
    /// The store as the user named it.
    let spec: StoreSpec
    /// The same engine, at the staged file.
    let stagedSpec: StoreSpec

    private let staging: NewStoreStaging
    /// The store's path as the user gave it.
    private let path: String
    /// The file the store is published at: `path`, or the file a symbolic link there points to.
    private let file: String

    /// Begins a new store's write when `spec` is a file store whose file does not exist.
    ///
    /// - Parameter spec: The store as the user named it; its folder must exist.
    /// - Returns: `nil` when the store exists (or is in memory): write into it the ordinary way. (The staging folders
    ///   that killed first writes of it left are deleted then.)
    /// - Throws: ``PostStoreError`` when the staging folder cannot be made.
    static func begin(_ spec: StoreSpec) throws -> NewStoreWrite? {
        guard let path = spec.path else { return nil }
        // A symbolic link is followed, also to a file that does not exist yet: the store is built beside, and
        // published at, the file the link points to.
        let file = try localFileSystem.resolvingSymbolicLinks(inPath: path)
        guard !FileManager.default.fileExists(atPath: file) else {
            NewStoreStaging.removeAbandonedFolders(of: file, fileSystem: localFileSystem, clock: SystemClock())
            return nil
        }
        try spec.engine.checkNothingLeftBehind(file)
        return try NewStoreWrite(spec, path: path, file: file)
    }

    private init(_ spec: StoreSpec, path: String, file: String) throws {
        staging = try NewStoreStaging(finalPath: file, fileSystem: localFileSystem, clock: SystemClock())
        self.spec = spec
        self.path = path
        self.file = file
        stagedSpec = spec.atPath(staging.storePath)
        InterruptHandler.removeOnInterrupt(
            files: staging.storeFiles,
            lockFile: staging.lockFile,
            folder: staging.folder
        )
    }

    /// Runs the write into the staged store, naming the store as the user did in its errors (the staging folder is
    /// this command's business, not theirs).
    ///
    /// - Parameter write: The write; the staged store must be released (closed) when it returns.
    /// - Returns: What `write` returns.
    /// - Throws: What `write` throws.
    func build<Result>(_ write: () async throws -> Result) async throws -> Result {
        do {
            return try await write()
        } catch let error as PostStoreError {
            throw namingFinalPath(error)
        }
    }

    /// Publishes the built store under its name, unless a store appeared there meanwhile.
    ///
    /// - Returns: `true` when published; `false` when another process created the store since the write began: it
    ///   is left untouched, and the write should be made into it.
    /// - Throws: ``PostStoreError`` when the store cannot be finished, flushed or linked.
    func publish() throws -> Bool {
        do {
            try spec.engine.finishStaging(staging.storePath)
            return try staging.publish()
        } catch let error as PostStoreError {
            throw namingFinalPath(error)
        }
    }

    /// Deletes the staging folder (the published store keeps its name). Callers `defer` it; calling it again does
    /// nothing.
    func discard() {
        InterruptHandler.removeNothingOnInterrupt()
        staging.discard()
    }

    /// `error` with the staged file, and the file a link resolves to, named as the store the user named.
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
