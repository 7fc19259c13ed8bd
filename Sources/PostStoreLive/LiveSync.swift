public import Logging
public import PostStore
@_spi(ServerStore) import PostStoreEngines

/// Syncs the store of a configuration over its whole life, from the sync that creates it to a follower that keeps
/// it in step: what `poststore sync` does, for an app.
///
/// - A file store that does not exist yet is built in a staging folder beside its path and published there whole
///   once the sync has written it: a sync that fails, is cancelled or is killed leaves no store, never half of one
///   (a later sync removes what a killed one left). When another process creates the store meanwhile, the posts
///   already read are synced into that store, as any later sync would.
/// - A dry run never creates a store: on a missing one it previews against an empty store, which checks the posts
///   as the store's engine would.
/// - ``follow(_:wait:progress:)`` syncs first, then follows the source from that sync's checkpoint with the same
///   store and data service (a new store is opened again once published, at its place); a source or store that
///   cannot be reached is tried again, in one place, until it can.
///
/// For example, a replica that follows a `poststore serve` source:
///
/// ```swift
/// let sync = LiveSync(
///     PostStoreConfiguration(
///         store: StoreSpec(.sqlite, path: "replica.sqlite"),
///         source: .http(URL(string: "http://127.0.0.1:8080/posts")!)
///     )
/// )
/// for try await report in sync.follow(SyncOptions(prune: true)) {
///     print("\(report.fetched) fetched")
/// }
/// ```
public struct LiveSync: Sendable {
    /// Which store, which source, and the timeouts and retries between them.
    public let configuration: PostStoreConfiguration
    /// How the graph's parts are made.
    private let wiring: LiveWiring
    /// What a program that handles signals is told of new stores and commits (the command line's).
    package var hooks = StoreWriteHooks()

    /// Creates the syncs of a configuration; nothing is opened until one runs.
    ///
    /// - Parameters:
    ///   - configuration: Which store, which source, timeouts and retries.
    ///   - logger: Where syncs and retries are logged; `nil` (the default) logs nothing.
    public init(_ configuration: PostStoreConfiguration, logger: Logger? = nil) {
        self.init(configuration, wiring: LiveWiring(logger: logger))
    }

    /// Creates the syncs of a configuration with the given seams (the command line's, a test's).
    package init(_ configuration: PostStoreConfiguration, wiring: LiveWiring) {
        self.configuration = configuration
        self.wiring = wiring
    }

    /// Syncs the store once, creating it when it is a file store that does not exist yet.
    ///
    /// - Parameters:
    ///   - options: What the sync does (see `SyncOptions`).
    ///   - progress: Called as the sync advances.
    /// - Returns: The sync's report.
    /// - Throws: `PostStoreError`, as `SyncService.sync(_:progress:)` and opening the store throw it; errors about
    ///   a new store name it by the configured path, not its staging folder's.
    public func sync(
        _ options: SyncOptions = SyncOptions(),
        progress: @escaping @Sendable (SyncProgress) -> Void = { _ in }
    ) async throws -> SyncReport {
        try await syncOnce(options, progress: progress).report
    }

    /// Syncs the store once (creating it as ``sync(_:progress:)`` does), then follows the source: each change
    /// applied as it commits there, until the task is cancelled. See `SyncService.follow(_:wait:progress:)`.
    ///
    /// The first sync refuses a source without a changes feed before it writes anything, and is tried again while
    /// the source or the store cannot be reached, as every later request is.
    ///
    /// - Parameters:
    ///   - options: What each sync does; a dry run cannot be followed.
    ///   - wait: How long the source may hold each request while it has no change.
    ///   - progress: Called as each sync advances and before each retry.
    /// - Returns: The first sync's report, then one for each answer that brought changes.
    public func follow(
        _ options: SyncOptions = SyncOptions(),
        wait: Duration = .seconds(30),
        progress: @escaping @Sendable (SyncProgress) -> Void = { _ in }
    ) -> AsyncThrowingStream<SyncReport, any Error> {
        .yielding { report in try await follow(options, wait: wait, progress: progress, report: report) }
    }

    private func follow(
        _ options: SyncOptions,
        wait: Duration,
        progress: @escaping @Sendable (SyncProgress) -> Void,
        report: (SyncReport) -> Void
    ) async throws {
        guard !options.dryRun else {
            throw PostStoreError(
                .invalidArgument,
                "A dry run cannot follow \(configuration.source): it writes no checkpoint."
            )
        }
        var options = options
        // A follower's first sync refuses a source it could not follow before it writes anything.
        options.requiresChangesFeed = true
        let first = try await SyncService.retryingWhileUnreachable(clock: try wiring.clock(), progress: progress) {
            try await syncOnce(options, progress: progress)
        }
        report(first.report)
        let graph = try first.graph ?? wiring.dependencies(configuration, dataService: first.dataService)
        for try await later in graph.syncService.follow(
            options,
            continuingFrom: first.report,
            wait: wait,
            progress: progress
        ) {
            report(later)
        }
    }

    /// A sync's report, the graph of the store it wrote (`nil` when that store was new and is closed now) and its
    /// data service, which a follower keeps.
    private struct Synced {
        let report: SyncReport
        let graph: PostStoreDependencies?
        let dataService: any PostDataService
    }

    private func syncOnce(
        _ options: SyncOptions,
        progress: @escaping @Sendable (SyncProgress) -> Void
    ) async throws -> Synced {
        guard !options.dryRun else { return try await dryRun(options, progress: progress) }
        // The posts read into a new store, to sync into a store another process created meanwhile (standard input
        // cannot be read twice).
        let read = LockedState<ReplayingPostDataService?>(nil)
        let hooks = self.hooks
        let written = try await StoreWrite(into: configuration.store, hooks: hooks).run(
            intoNewStore: { staged in
                var configuration = configuration
                configuration.store = staged
                configuration.isStaged = true
                // The staged store is released when this returns, before it is published.
                let graph = try await opened(configuration)
                let posts = ReplayingPostDataService(graph.dataService)
                read.withLock { $0 = posts }
                let service = SyncService(dataService: posts, store: graph.store, clock: graph.clock, logger: logger)
                return Synced(
                    report: try await service.sync(options, progress: progress),
                    graph: nil,
                    dataService: graph.dataService
                )
            },
            intoExistingStore: { committed in
                // Once the sync has committed (it reports `.applied` then), the program may let a signal through.
                let committing: @Sendable (SyncProgress) -> Void = { event in
                    progress(event)
                    if case .applied = event { committed() }
                }
                let replay = read.withLock { $0 }
                let graph = try await opened(configuration, dataService: replay?.wrapped)
                let service =
                    replay.map {
                        SyncService(dataService: $0, store: graph.store, clock: graph.clock, logger: logger)
                    } ?? graph.syncService
                return Synced(
                    report: try await service.sync(options, progress: committing),
                    graph: graph,
                    dataService: graph.dataService
                )
            }
        )
        return written.result
    }

    /// A dry run: against the store, or against an empty one in memory when it is missing, whose posts are checked
    /// as the store's engine would check them.
    private func dryRun(
        _ options: SyncOptions,
        progress: @escaping @Sendable (SyncProgress) -> Void
    ) async throws -> Synced {
        var existing = configuration
        existing.openMode = .openExisting
        let graph: PostStoreDependencies
        do {
            graph = try await opened(existing)
        } catch let error as PostStoreError where error.code == .storeNotFound {
            var empty = configuration
            empty.store = StoreSpec(.memory)
            let memory = try await opened(empty)
            // The store's engine refuses what a store in memory keeps (PostgreSQL: a NUL character).
            let checked = KeepableCheckedSource(
                base: memory.dataService,
                check: configuration.store.engine.checkKeepable
            )
            graph = PostStoreDependencies(
                store: memory.store,
                dataService: checked,
                clock: memory.clock,
                logger: logger
            )
        }
        return Synced(
            report: try await graph.syncService.sync(options, progress: progress),
            graph: graph,
            dataService: graph.dataService
        )
    }

    /// The graph of `configuration`, its store opened now, so that a missing or unreachable one is reported before
    /// anything is fetched (a store on a server connects and migrates, as its first call would).
    private func opened(
        _ configuration: PostStoreConfiguration,
        dataService: (any PostDataService)? = nil
    ) async throws -> PostStoreDependencies {
        let graph = try wiring.dependencies(configuration, dataService: dataService)
        try await (graph.store as? any ServerStore)?.migrate()
        return graph
    }

    private var logger: Logger? { wiring.logger() }
}
