import PostStore
import PostStoreLive

/// A command's write into a store (`sync`, `copy`) that a signal never leaves half-done, and that a signal after
/// its commit no longer stops.
///
/// A store whose file is missing is staged and published only when complete (the library's `StoreWrite`),
/// with signals held back while it is published; if another process created the store meanwhile, the write is made
/// into that store, as any later write would be. An existing store is written into directly, and the write tells
/// the ``CommitGate`` as soon as it has committed. From then on a SIGINT, SIGTERM or SIGHUP lets the command finish,
/// print its report and exit 0.
///
/// For example, `copy`'s write:
///
/// ```swift
/// let summary = try await InterruptSafeWrite().run(
///     into: spec,
///     intoNewStore: { staged in try await write(StoreOptions.store(staged, openMode: .createIfMissing)) },
///     intoExistingStore: { committed in
///         let summary = try await write(StoreOptions.store(spec, openMode: .createIfMissing))
///         committed()
///         return summary
///     }
/// )
/// ```
struct InterruptSafeWrite: Sendable {
    /// Told of the commit; the signal handler asks it what a signal does.
    let gate: CommitGate
    /// Runs once the write has returned, before the command reports.
    let afterCommit: @Sendable () async -> Void

    /// Creates the write of a command.
    ///
    /// - Parameters:
    ///   - gate: Told of the commit: the process's gate (``InterruptHandler/gate``), or a test's.
    ///   - afterCommit: Runs once the write has returned (it has committed then, unless it wrote nothing): nothing
    ///     in the command; a test delivers a signal there, at the moment it means to test.
    init(
        gate: CommitGate = InterruptHandler.gate,
        afterCommit: @escaping @Sendable () async -> Void = {}
    ) {
        self.gate = gate
        self.afterCommit = afterCommit
    }

    /// Writes into `spec` as the library's `StoreWrite` does (staged when its file is missing, directly
    /// otherwise), telling the process's signal handling of the staged files and the commit.
    ///
    /// - Parameters:
    ///   - spec: The store as the user named it; its folder must exist.
    ///   - intoNewStore: Writes into the staged store it is given, naming it as the user named `spec` in its errors;
    ///     the staged store must be released (closed) when it returns.
    ///   - intoExistingStore: Writes into `spec` and calls the function it is given as soon as its write has
    ///     committed durably. It runs when the store exists, or when another process created it while
    ///     `intoNewStore` ran.
    /// - Returns: What the write that was published or committed returned.
    /// - Throws: What the writes throw, and ``PostStoreError`` when the staging folder cannot be made or the new
    ///   store cannot be published.
    func run<Result>(
        into spec: StoreSpec,
        intoNewStore: (_ staged: StoreSpec) async throws -> Result,
        intoExistingStore: (_ committed: @escaping @Sendable () -> Void) async throws -> Result
    ) async throws -> Result {
        let result = try await StoreWrite(into: spec, hooks: hooks(refusingFolderOf: spec)).run(
            intoNewStore: intoNewStore,
            intoExistingStore: intoExistingStore
        )
        await afterCommit()
        return result.result
    }

    /// The library's hooks for a write into `spec`: its staged files removed when a signal stops the process, its
    /// publication and commit told to ``gate``.
    func hooks(refusingFolderOf spec: StoreSpec) -> StoreWriteHooks {
        var hooks = StoreWriteHooks()
        hooks.stagingBegan = { files, lockFile, folder in
            InterruptHandler.removeOnInterrupt(files: files, lockFile: lockFile, folder: folder)
        }
        hooks.stagingEnded = { InterruptHandler.removeNothingOnInterrupt() }
        hooks.committing = { [gate] step in
            // A folder made at the store's path meanwhile is refused as the command would refuse it.
            try StoreOptions.refuseFolder(spec, openMode: .createIfMissing)
            return try gate.committing(step)
        }
        hooks.committed = gate.writeCommitted
        return hooks
    }
}
