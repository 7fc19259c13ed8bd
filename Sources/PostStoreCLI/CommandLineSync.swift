import Foundation
import Logging
import PostStore
import PostStoreContainer
import PostStoreEngines
import PostStoreHTTP
import PostStoreLive

/// One `poststore sync`, from its checked options to its report: the store's folder, a dry run's fallbacks, the
/// live graph, and the write (into a new store staged, see ``InterruptSafeWrite``).
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
    /// to the side when its file is missing.
    ///
    /// - Parameter progress: Draws the sync's progress.
    /// - Returns: The sync's report.
    /// - Throws: What the sync throws, the library's errors as they are.
    func run(progress: ProgressDisplay) async throws -> SyncReport {
        var options = self.options
        // A whole sync downloads everything: it sends neither a checkpoint nor an ETag.
        options.usesChangeToken = !command.full
        options.usesETag = !command.full
        // A follower's first sync refuses a source it could not follow before it writes anything.
        options.requiresChangesFeed = command.follow
        guard !command.dryRun else {
            return try await wire(spec, progress).resolve(SyncService.self).sync(options, progress: progress.show)
        }
        // The posts read into a new store, to sync into a store another process created meanwhile (standard input
        // cannot be read twice).
        var postsRead: ReplayingPostDataService?
        return try await interruptSafeWrite.run(
            into: spec,
            intoNewStore: { staged in
                // The staged store is released when this returns, before it is published.
                let graph = try await wire(staged, progress, isStaged: true)
                let posts = ReplayingPostDataService(try graph.resolve())
                postsRead = posts
                return try await syncService(graph, posts).sync(options, progress: progress.show)
            },
            intoExistingStore: { committed in
                // Once the sync has committed (it reports `.applied` then), a signal lets it finish.
                let committing: @Sendable (SyncProgress) -> Void = { event in
                    progress.show(event)
                    if case .applied = event { committed() }
                }
                let graph = try await wire(spec, progress)
                let service = try postsRead.map { try syncService(graph, $0) } ?? graph.resolve(SyncService.self)
                return try await service.sync(options, progress: committing)
            }
        )
    }

    /// ``run(progress:)``, tried again while the source or the store cannot be reached or is busy, after pauses
    /// that double from 0.1 s to 5 s as a follower's do (`SyncService.follow`), each shown as a retry.
    func runUntilReached(progress: ProgressDisplay) async throws -> SyncReport {
        try await SyncService.retryingWhileUnreachable(clock: SystemClock(), progress: progress.show) {
            try await progress.showing { try await run(progress: progress) }
        }
    }

    /// Follows the source after ``run(progress:)``: its store exists then.
    ///
    /// - Parameters:
    ///   - wait: How long the source may hold each request while it has no change.
    ///   - progress: Draws each sync's progress and each retry.
    /// - Returns: The reports, as each write commits (see `SyncService.follow(_:wait:progress:)`).
    func follow(wait: Duration, progress: ProgressDisplay) async throws -> AsyncThrowingStream<SyncReport, any Error> {
        let graph = try await wire(spec, progress)
        return try graph.resolve(SyncService.self).follow(options, wait: wait, progress: progress.show)
    }

    /// The options of the command's syncs.
    private var options: SyncOptions {
        SyncOptions(
            prune: command.prune,
            deletionLimit: command.force ? .unlimited : SyncOptions.defaultDeletionLimit,
            dryRun: command.dryRun
        )
    }

    /// The sync service of `graph`, reading `posts` instead of the graph's own source.
    private func syncService(_ graph: DependencyStore, _ posts: any PostDataService) throws -> SyncService {
        graph.register(posts, for: (any PostDataService).self)
        return try graph.resolve(SyncService.self)
    }

    /// The live graph, its store opened (a stale search index rebuilt on opening is drawn on `progress`). A dry
    /// run never creates a store: on a missing one it previews against an empty store.
    private func wire(
        _ spec: StoreSpec,
        _ progress: ProgressDisplay,
        isStaged: Bool = false
    ) async throws -> DependencyStore {
        let wire = { (spec: StoreSpec, openMode: StoreOpenMode) async throws in
            var configuration = PostStoreConfiguration(
                store: spec,
                source: source,
                openMode: openMode,
                requestTimeout: .milliseconds(Int64((command.timeout * 1000).rounded())),
                // A follower retries an unreachable source itself, with pauses from 0.1 s to 5 s and without end:
                // the request's own retries inside each of its tries would only nest two counts of attempts.
                retryPolicy: RetryPolicy(maximumAttempts: command.follow ? 1 : command.retries + 1),
                limits: PayloadLimits(
                    maximumPostBytes: command.maxPostSize.bytes,
                    maximumPayloadBytes: command.maxPayloadSize.bytes
                )
            )
            configuration.isStaged = isStaged
            let graph = StoreOptions.live(
                configuration,
                logger: logger(progress),
                progress: progress.opening(spec.description)
            )
            // The store is opened now, so that a missing one is reported before anything is fetched.
            try await StoreOptions.openStore(of: graph, spec)
            return graph
        }
        guard command.dryRun else { return try await wire(spec, .createIfMissing) }
        do {
            return try await wire(spec, .openExisting)
        } catch let error as PostStoreError where error.code == .storeNotFound {
            let graph = try await wire(StoreSpec(.memory), .createIfMissing)
            // The store's engine refuses what a store in memory keeps (PostgreSQL: a NUL character).
            let source = KeepableCheckedSource(base: try graph.resolve(), check: spec.engine.checkKeepable)
            graph.register(source as any PostDataService, for: (any PostDataService).self)
            return graph
        }
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
