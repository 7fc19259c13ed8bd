import Foundation
import Logging
import PostStore
import PostStoreHTTP
import PostStoreLive

/// One `poststore sync`, from its checked options to its report: the store's folder, the configuration, and the
/// process's signal handling; the library's `LiveSync` does the syncing (a new store staged, a dry run's fallbacks).
///
/// ``SyncCommand`` parses and prints; this does the rest. For example:
///
/// ```swift
/// let sync = CommandLineSync(command: command, spec: spec, source: source, isDefaultStore: false)
/// try sync.prepareStoreFolder()
/// let report = try await sync.run(progress: ProgressDisplay(terminal: nil))
/// ```
struct CommandLineSync {
    /// The command as parsed and validated.
    let command: SyncCommand
    /// The store to sync into.
    let spec: StoreSpec
    /// Where the posts come from.
    let source: PostStoreConfiguration.Source
    /// Whether the store is the default one (no `--store`, no `POSTSTORE_STORE`), whose folder is ours to create.
    let isDefaultStore: Bool
    /// Tells the process's signal handling of the commit (a test's, in tests).
    var interruptSafeWrite = InterruptSafeWrite()

    /// Makes the default store's folder, then refuses a store whose folder is missing or not a folder. A dry run
    /// fails where the sync would (but the default store's folder would be created, so it is not made).
    ///
    /// - Throws: ``PostStoreError`` naming the folder's problem.
    func prepareStoreFolder() throws {
        if let path = spec.path, isDefaultStore, !command.dryRun {
            // The default store's folder is ours to create.
            try? FileManager.default.createDirectory(atPath: path.parentFolderPath, withIntermediateDirectories: true)
        }
        if command.dryRun && isDefaultStore {
            try StoreOptions.refuseFolder(spec, openMode: .createIfMissing)
        } else {
            try StoreOptions.checkFolder(of: spec)
        }
    }

    /// Syncs: a dry run against the store (or an empty one when it is missing); otherwise into the store, built off
    /// to the side when its file is missing (see `LiveSync`).
    ///
    /// - Parameter progress: Draws the sync's progress.
    /// - Returns: The sync's report.
    /// - Throws: What the sync throws, the library's errors as they are.
    func run(progress: ProgressDisplay) async throws -> SyncReport {
        let report = try await liveSync(progress).sync(options, progress: progress.show)
        if !command.dryRun { await interruptSafeWrite.afterCommit() }
        return report
    }

    /// The first sync, tried again while the source or the store cannot be reached or is busy, then the source
    /// followed from it (see `LiveSync.follow(_:wait:progress:)`): one store and one data service for both.
    ///
    /// - Parameters:
    ///   - wait: How long the source may hold each request while it has no change.
    ///   - progress: Draws each sync's progress and each retry.
    /// - Returns: The first sync's report, then the reports as each write commits.
    func follow(wait: Duration, progress: ProgressDisplay) -> AsyncThrowingStream<SyncReport, any Error> {
        liveSync(progress).follow(options, wait: wait) { event in
            progress.show(event)
        }
    }

    /// The options of the command's syncs.
    private var options: SyncOptions {
        var options = SyncOptions(
            prune: command.prune,
            deletionLimit: command.force ? .unlimited : SyncOptions.defaultDeletionLimit,
            dryRun: command.dryRun
        )
        // A whole sync downloads everything: it sends neither a checkpoint nor an ETag.
        options.usesChangeToken = !command.full
        options.usesETag = !command.full
        return options
    }

    /// The command's syncs, their store opened with the command's settings, their new stores staged and their
    /// commits told to the process's signal handling.
    private func liveSync(_ progress: ProgressDisplay) -> LiveSync {
        let configuration = PostStoreConfiguration(
            store: spec,
            source: source,
            requestTimeout: .milliseconds(Int64((command.timeout * 1000).rounded())),
            // A follower retries an unreachable source itself, with pauses from 0.1 s to 5 s and without end: the
            // request's own retries inside each of its tries would only nest two counts of attempts.
            retryPolicy: RetryPolicy(maximumAttempts: command.follow ? 1 : command.retries + 1),
            limits: PayloadLimits(
                maximumPostBytes: command.maxPostSize.bytes,
                maximumPayloadBytes: command.maxPayloadSize.bytes
            )
        )
        var wiring = LiveWiring(logger: logger(progress))
        wiring.openingProgress = progress.opening(spec.description)
        var sync = LiveSync(configuration, wiring: wiring)
        sync.hooks = interruptSafeWrite.hooks(refusingFolderOf: spec)
        return sync
    }

    /// With `--verbose`, the sync's and each retry's log lines on standard error (swift-log's stream handler),
    /// above the progress line; otherwise none (the library logs nothing without a logger).
    private func logger(_ progress: ProgressDisplay) -> Logger? {
        guard command.options.verbose && !command.quiet else { return nil }
        return Logger(label: "poststore") {
            ProgressLogHandler(StreamLogHandler.standardError(label: $0), display: progress)
        }
    }
}
