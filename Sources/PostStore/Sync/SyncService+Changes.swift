/// Syncing from a source with a changes feed (``PostChangesSource``): the changes since the store's checkpoint
/// alone, each answer one write with the next checkpoint.
extension SyncService {
    /// How many times a sync starts again from a checkpoint another sync moved under it.
    static let checkpointRetries = 3

    /// Syncs by changes when the store holds the source's checkpoint, else by a whole copy that records one.
    ///
    /// A token the source cannot answer falls back to a whole copy, and says why in the report
    /// (``SyncReport/refetchReason``). A checkpoint that another sync moved between the read and the write
    /// (``PostStoreError/Code/checkpointMoved``) is read again, and the sync goes on from it.
    ///
    /// - Parameters:
    ///   - wait: How long the source may hold the first request for changes while it has none (a follower's long
    ///     poll).
    ///   - recordsNoChange: Whether an answer with no change since the checkpoint is recorded as a sync (the time
    ///     of the last sync); a follower's polls are not.
    func syncByChanges(
        from feed: any PostChangesSource,
        _ options: SyncOptions,
        start: Duration,
        wait: Duration = .zero,
        recordsNoChange: Bool = true,
        progress: @escaping @Sendable (SyncProgress) -> Void
    ) async throws -> SyncReport {
        var retries = 0
        while true {
            do {
                return try await syncByChangesOnce(
                    from: feed,
                    options,
                    start: start,
                    wait: wait,
                    recordsNoChange: recordsNoChange,
                    progress: progress
                )
            } catch let error as PostStoreError where error.code == .checkpointMoved && retries < Self.checkpointRetries
            {
                retries += 1
            }
        }
    }

    private func syncByChangesOnce(
        from feed: any PostChangesSource,
        _ options: SyncOptions,
        start: Duration,
        wait: Duration,
        recordsNoChange: Bool,
        progress: @escaping @Sendable (SyncProgress) -> Void
    ) async throws -> SyncReport {
        var wait = wait
        // A follower's report times the work from the held answer's arrival, not the wait for it.
        var start = start
        let source = dataService.source
        let previous = try await store.syncState(for: source)
        var since = options.usesChangeToken ? previous?.changeToken : nil
        var report = SyncReport(
            source: source,
            fetched: 0,
            summary: WriteSummary(),
            pages: 0,
            dryRun: options.dryRun,
            duration: .zero
        )
        report.byChanges = since != nil
        while true {
            let etag = since == nil && options.usesETag ? try await etag(of: previous, options) : nil
            let answer = try await feed.fetchChanges(
                PostChangesRequest(
                    since: since,
                    limit: options.changesLimit,
                    wait: since == nil ? .zero : wait,
                    etag: etag,
                    progress: progress
                )
            )
            if wait > .zero { start = clock.uptime() }
            wait = .zero
            switch answer {
            case .mustRefetch(let reason):
                guard since != nil else {
                    throw PostStoreError(
                        .invalidData,
                        "\(source) answered a request for every post with \"must refetch\": \(reason)"
                    )
                }
                logger?.notice("\(source) cannot tell the changes since the last sync; fetching every post: \(reason)")
                report.refetchReason = reason
                report.byChanges = false
                since = nil
            case .withoutFeed(let fetched):
                if options.requiresChangesFeed { throw Self.noFeed(source) }
                var whole = try await syncWhole(
                    fetched,
                    previous: etag == nil ? nil : previous,
                    options,
                    start: start,
                    progress: progress
                )
                whole.refetchReason = report.refetchReason
                return whole
            case .notModified(let token):
                // The posts the ETag stands for are the source's at `token`: confirmed, the token is the checkpoint.
                var whole = try await syncWhole(
                    .notModified,
                    previous: etag == nil ? nil : previous,
                    options,
                    start: start,
                    checkpoint: token,
                    progress: progress
                )
                whole.refetchReason = report.refetchReason
                return whole
            case .changes(let changes, let pages):
                if !recordsNoChange, let since, changes.count == 0, changes.next == since {
                    report.changeToken = since
                    report.duration = clock.uptime() - start
                    return report
                }
                let summary = try await apply(changes, since: since, options, progress: progress)
                report.fetched += changes.count
                report.inserted += summary.inserted
                report.updated += summary.updated
                report.unchanged += summary.unchanged
                report.deleted += summary.deleted
                report.pages += pages
                if since != nil, !options.prune { report.deletionsKept += changes.deletedIds.count }
                report.changeToken = changes.next
                // A dry run writes no checkpoint to go on from: it reports one answer.
                guard !changes.isCaughtUp, !options.dryRun else {
                    progress(.applied(report.summary))
                    report.duration = clock.uptime() - start
                    return report
                }
                since = changes.next
            }
        }
    }

    /// Applies one answer as one write, with the checkpoint it leads to, on the condition that the store's
    /// checkpoint is still `since`: a whole copy (`since` is `nil`) prunes as a whole sync does; the changes since
    /// a token delete what the source deleted only with ``SyncOptions/prune``.
    private func apply(
        _ changes: PostChanges,
        since: ChangeToken?,
        _ options: SyncOptions,
        progress: @escaping @Sendable (SyncProgress) -> Void
    ) async throws -> WriteSummary {
        var state = SyncState(source: dataService.source, syncedAt: clock.now())
        state.changeToken = changes.next
        var changeSet = PostChangeSet(
            deletions: since != nil && options.prune ? Set(changes.deletedIds) : [],
            prune: since == nil && options.prune,
            deletionLimit: options.deletionLimit,
            syncState: state,
            syncStateRecording: .recordingSummary
        )
        changeSet.requiredChangeToken = since
        let posts = PostStream.reporting(changes.posts) { progress(.working($0)) }
        do {
            return options.dryRun
                ? try await store.preview(changeSet, streaming: posts)
                : try await store.apply(changeSet, streaming: posts) { progress(.working($0)) }
        } catch let error as PostStoreError where error.code == .tooManyDeletions {
            let what = since == nil ? "sent \(changes.posts.count) posts" : "deleted \(changes.deletedIds.count) posts"
            throw PostStoreError(
                .tooManyDeletions,
                "Prune refused: \(dataService.source) \(what). \(error.message) Check the source, or lift the deletion "
                    + "limit.",
                cause: error
            )
        }
    }
}
