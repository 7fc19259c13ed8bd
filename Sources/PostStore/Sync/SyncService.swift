public import Logging
import Synchronization

/// Brings a store to the state of a source: the heart of PostStore.
///
/// Every dependency is injected: where posts come from (a ``PostDataService``), where they go (any
/// ``PostStoreProtocol``), the clock that dates the sync and times it, and the logger.
///
/// One sync fetches every post of the source as a stream (see ``PostDataService/streamPosts(_:)``) and applies them
/// to the store in one atomic ``PostChangeSet`` as they are read, every post checked — a bad one rolls the whole
/// step back: new posts are inserted, changed ones replaced, equal ones not written,
/// and — with ``SyncOptions/prune`` — posts the source no longer has deleted, unless that would delete more than
/// the ``SyncOptions/deletionLimit`` allows. The store decides what changed under its write lock, so two syncs
/// into one store at once (two processes on one file) end in the state of the one that committed last, never a
/// mixture. The same step records a ``SyncState`` (source, `ETag`, time, counts); the next sync sends that `ETag`
/// — unless a write has changed posts since, or it prunes and the store holds posts that sync did not bring — and a
/// source answering `304 Not Modified` leaves the posts untouched. Any failure leaves the store as it was.
///
/// For example:
///
/// ```swift
/// let service = SyncService(
///     dataService: try HTTPPostDataService(),
///     store: try SQLitePostStore(path: "posts.sqlite")
/// )
/// let report = try await service.sync(SyncOptions(prune: true))
/// print("\(report.inserted) new, \(report.updated) changed, \(report.deleted) deleted")
/// ```
public struct SyncService: Sendable {
    let dataService: any PostDataService
    let store: any PostStoreProtocol
    let clock: any ClockProtocol
    let logger: Logger?

    /// Creates a service.
    ///
    /// - Parameters:
    ///   - dataService: Where the posts come from.
    ///   - store: Where they go.
    ///   - clock: Dates the recorded sync state and times the sync.
    ///   - logger: Where each sync's outcome is logged, one `info` line with the counts as metadata; `nil` (the
    ///     default) logs nothing. The service never makes a logger of its own.
    public init(
        dataService: any PostDataService,
        store: any PostStoreProtocol,
        clock: any ClockProtocol,
        logger: Logger? = nil
    ) {
        self.dataService = dataService
        self.store = store
        self.clock = clock
        self.logger = logger
    }

    /// Syncs the store with the source once.
    ///
    /// - Parameters:
    ///   - options: Prune, its deletion limit, dry run, conditional requests.
    ///   - progress: Called as each phase advances (downloading or reading the posts, writing them, building the
    ///     search index, pruning), when a request is retried, and when the sync is done: in this task, in order,
    ///     and never after the sync returns or throws.
    /// - Returns: What the sync did (or would do, in a dry run).
    /// - Throws: ``PostStoreError``, and the store is left as it was: the data service's errors (`invalidData`,
    ///   `sourceNotFound`, `sourceUnavailable`, …), `tooManyDeletions` from the deletion limit, and the store's own;
    ///   `CancellationError` when the task is cancelled (while a request or a retry waits).
    @discardableResult
    public func sync(
        _ options: SyncOptions = SyncOptions(),
        progress: @escaping @Sendable (SyncProgress) -> Void = { _ in }
    ) async throws -> SyncReport {
        let start = clock.uptime()
        let report: SyncReport
        if let feed = dataService as? any PostChangesSource {
            report = try await syncByChanges(from: feed, options, start: start, progress: progress)
        } else {
            if options.requiresChangesFeed { throw Self.noFeed(dataService.source) }
            let previous = options.usesETag ? try await store.syncState(for: dataService.source) : nil
            let fetched = try await dataService.streamPosts(
                PostFetchRequest(etag: try await etag(of: previous, options), progress: progress)
            )
            report = try await syncWhole(fetched, previous: previous, options, start: start, progress: progress)
        }
        log(report)
        return report
    }

    /// Applies what a fetch of every post returned: the posts, or a `304` confirmed.
    ///
    /// - Parameters:
    ///   - previous: The saved state whose `ETag` the fetch sent, if it sent one.
    ///   - checkpoint: The change token a `304` said the posts stand at, recorded with the confirmed `ETag`.
    func syncWhole(
        _ fetched: PostStreamResult,
        previous: SyncState?,
        _ options: SyncOptions,
        start: Duration,
        checkpoint: ChangeToken? = nil,
        progress: @escaping @Sendable (SyncProgress) -> Void
    ) async throws -> SyncReport {
        let source = dataService.source
        let report: SyncReport
        switch fetched {
        case .notModified:
            if !options.dryRun {
                // Another writer may have changed posts since `previous` was read: the store keeps the ETag only
                // if that did not happen.
                // The counts stay those of the sync that downloaded the posts the ETag stands for.
                var state = previous ?? SyncState(source: source, syncedAt: clock.now())
                state.syncedAt = clock.now()
                state.changeToken = checkpoint ?? state.changeToken
                try await store.apply(PostChangeSet(syncState: state, syncStateRecording: .confirmingETag))
            }
            progress(.applied(WriteSummary()))
            var notModified = SyncReport(
                source: source,
                fetched: 0,
                summary: WriteSummary(),
                notModified: true,
                pages: 1,
                dryRun: options.dryRun,
                duration: clock.uptime() - start
            )
            notModified.changeToken = checkpoint
            report = notModified
        case .posts(let stream, let etag, let pages):
            let sent = Mutex(0)
            let counted = PostStream {
                CountingPostReader(try stream.makeReader()) { count in
                    sent.withLock { $0 = count }
                }
            }
            let summary = try await apply(counted, sent: sent, etag: etag, options, progress: progress)
            progress(.applied(summary))
            report = SyncReport(
                source: source,
                fetched: summary.inserted + summary.updated + summary.unchanged,
                summary: summary,
                pages: pages,
                dryRun: options.dryRun,
                duration: clock.uptime() - start
            )
        }
        return report
    }

    /// The ETag to send: the one remembered from the last sync, unless the sync prunes and the store holds more
    /// than that sync's posts — a `304` would then skip the prune.
    ///
    /// A remembered ETag means no post changed since its sync, which upserted `fetched` posts; so the store holds
    /// exactly the source's posts when it holds `fetched` posts in all.
    func etag(of previous: SyncState?, _ options: SyncOptions) async throws -> String? {
        guard let previous, let etag = previous.etag else { return nil }
        guard options.prune else { return etag }
        return try await store.count() == previous.fetched ? etag : nil
    }

    /// Applies the stream; `sent` holds how many posts it held once the store has read it.
    private func apply(
        _ posts: PostStream,
        sent: borrowing Mutex<Int>,
        etag: String?,
        _ options: SyncOptions,
        progress: @escaping @Sendable (SyncProgress) -> Void
    ) async throws -> WriteSummary {
        // `fetched` and the counts are filled in by the store once it has read the stream.
        let changes = PostChangeSet(
            prune: options.prune,
            deletionLimit: options.deletionLimit,
            syncState: SyncState(source: dataService.source, etag: etag, syncedAt: clock.now()),
            syncStateRecording: .recordingSummary
        )
        do {
            return options.dryRun
                ? try await store.preview(changes, streaming: posts)
                : try await store.apply(changes, streaming: posts) { progress(.working($0)) }
        } catch let error as PostStoreError where error.code == .tooManyDeletions {
            let count = sent.withLock { $0 }
            throw PostStoreError(
                .tooManyDeletions,
                "Prune refused: \(dataService.source) sent \(count) post\(count == 1 ? "" : "s"). \(error.message) "
                    + "Check the source, or lift the deletion limit.",
                cause: error
            )
        }
    }

    func log(_ report: SyncReport) {
        guard let logger else { return }
        var metadata: Logger.Metadata = ["source": "\(report.source)", "dry-run": "\(report.dryRun)"]
        if report.notModified {
            logger.info("Sync not modified since the last one", metadata: metadata)
            return
        }
        metadata["fetched"] = "\(report.fetched)"
        metadata["inserted"] = "\(report.inserted)"
        metadata["updated"] = "\(report.updated)"
        metadata["unchanged"] = "\(report.unchanged)"
        metadata["deleted"] = "\(report.deleted)"
        logger.info("Synced", metadata: metadata)
    }
}
