/// Following a source with a changes feed: a sync, then each change applied as it comes.
extension SyncService {
    /// Follows a source with a changes feed: syncs once, then asks the feed again and again, each request held by
    /// the source until a write commits there (a long poll of up to `wait`), and applies each answer as one write
    /// with its checkpoint.
    ///
    /// The sequence yields the first sync's report, then one report for each answer that brought changes (or a
    /// whole copy, when the source could not tell the changes and the store fetched every post again). A source that
    /// cannot be reached, or a store that is busy or unreachable, is tried again after a pause that doubles from
    /// 0.1 s to 5 s, each try reported to `progress` as ``SyncProgress/retrying(attempt:delay:reason:)``; a
    /// restarted server is found again this way. A source that answers without a changes feed is refused before
    /// anything is written; an answer with no change is not recorded, and a source that gives one at once (a `wait`
    /// of zero) is asked at most once a second. Any other failure ends the sequence with its error. Cancelling
    /// the task that iterates (or ending the iteration) ends it: a write under way is finished first, for a store
    /// commits or rolls back a write whole.
    ///
    /// For example:
    ///
    /// ```swift
    /// for try await report in service.follow(SyncOptions(prune: true)) {
    ///     print("\(report.fetched) changes")
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - options: As ``sync(_:progress:)``; a dry run cannot be followed.
    ///   - wait: How long each request may be held by the source while it has no change.
    ///   - progress: Called as each sync advances and before each retry.
    /// - Returns: The reports, as each write commits.
    public func follow(
        _ options: SyncOptions = SyncOptions(),
        wait: Duration = .seconds(30),
        progress: @escaping @Sendable (SyncProgress) -> Void = { _ in }
    ) -> AsyncThrowingStream<SyncReport, any Error> {
        following(options, wait: wait, progress: progress, isFirst: true)
    }

    /// Follows a source from a sync already made, ``follow(_:wait:progress:)`` without its first sync: the first
    /// request already waits for the source's next change, and the sequence yields only the reports of the answers
    /// that brought changes.
    ///
    /// For example, with the report of a sync that created the store:
    ///
    /// ```swift
    /// let first = try await service.sync()
    /// for try await report in service.follow(continuingFrom: first) {
    ///     print("\(report.fetched) changes")
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - options: As ``follow(_:wait:progress:)``.
    ///   - report: The report of the sync that the following continues, into this service's store from its source.
    ///   - wait: How long each request may be held by the source while it has no change.
    ///   - progress: Called as each sync advances and before each retry.
    /// - Returns: The reports, as each write commits; the sequence throws `invalidArgument` at once when `report`
    ///   has no checkpoint (its source offered no changes feed).
    public func follow(
        _ options: SyncOptions = SyncOptions(),
        continuingFrom report: SyncReport,
        wait: Duration = .seconds(30),
        progress: @escaping @Sendable (SyncProgress) -> Void = { _ in }
    ) -> AsyncThrowingStream<SyncReport, any Error> {
        guard report.changeToken != nil else {
            return AsyncThrowingStream { $0.finish(throwing: Self.noFeed(dataService.source)) }
        }
        return following(options, wait: wait, progress: progress, isFirst: false)
    }

    private func following(
        _ options: SyncOptions,
        wait: Duration,
        progress: @escaping @Sendable (SyncProgress) -> Void,
        isFirst: Bool
    ) -> AsyncThrowingStream<SyncReport, any Error> {
        .yielding { report in
            try await follow(options, wait: wait, progress: progress, isFirst: isFirst, report: report)
        }
    }

    /// The longest pause between two tries of an unreachable source or store.
    static let longestFollowPause = Duration.seconds(5)

    /// Runs `attempt` until it returns, waiting out the failures a follower waits out (the source or the store
    /// unreachable or busy for a while, or another sync moving the checkpoint again and again) with pauses that
    /// double from 0.1 s to 5 s, each reported to `progress` as a retry; any other failure is thrown.
    package static func retryingWhileUnreachable<Result>(
        clock: any ClockProtocol,
        progress: (SyncProgress) -> Void,
        _ attempt: () async throws -> Result
    ) async throws -> Result {
        var failures = 0
        while true {
            do {
                return try await attempt()
            } catch let error as PostStoreError
                where [.sourceUnavailable, .storeUnavailable, .storeBusy, .checkpointMoved].contains(error.code)
            {
                failures += 1
                let pause = min(.milliseconds(100) * (1 << min(failures - 1, 16)), longestFollowPause)
                progress(.retrying(attempt: failures, delay: pause, reason: error.message))
                try await clock.sleep(for: pause)
            }
        }
    }

    private func follow(
        _ options: SyncOptions,
        wait: Duration,
        progress: @escaping @Sendable (SyncProgress) -> Void,
        isFirst: Bool,
        report: (SyncReport) -> Void
    ) async throws {
        let source = dataService.source
        guard !options.dryRun else {
            throw PostStoreError(.invalidArgument, "A dry run cannot follow \(source): it writes no checkpoint.")
        }
        guard let feed = dataService as? any PostChangesSource else { throw Self.noFeed(source) }
        var options = options
        options.requiresChangesFeed = true
        var isFirst = isFirst
        while true {
            try Task.checkCancellation()
            let asked = clock.uptime()
            let synced = try await Self.retryingWhileUnreachable(clock: clock, progress: progress) {
                try await syncByChanges(
                    from: feed,
                    options,
                    start: clock.uptime(),
                    wait: isFirst ? .zero : wait,
                    recordsNoChange: isFirst,
                    progress: progress
                )
            }
            // Without a checkpoint there is nothing to wait on: the source keeps no feed (any more).
            guard synced.changeToken != nil else { throw Self.noFeed(source) }
            if isFirst || synced.fetched > 0 || !synced.byChanges {
                log(synced)
                report(synced)
            } else if clock.uptime() - asked < Self.shortestPollInterval {
                // A source that answers "no change" at once (a short `wait`) is asked at most this often.
                try await clock.sleep(for: Self.shortestPollInterval - (clock.uptime() - asked))
            }
            isFirst = false
        }
    }

    /// The shortest time between two requests of a follower whose source answers "no change" at once.
    static let shortestPollInterval = Duration.seconds(1)

    /// The error for a source without a changes feed, which cannot be followed.
    static func noFeed(_ source: String) -> PostStoreError {
        PostStoreError(
            .invalidArgument,
            "\(source) offers no changes feed to follow: only a poststore serve source's whole /posts has one (its "
                + "answer carries PostStore-Changes-Token), not a filtered list or another server. Follow that, or "
                + "sync without following."
        )
    }
}
