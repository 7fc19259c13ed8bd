import ArgumentParser
import Foundation
import PostStore
import PostStoreHTTP
import PostStoreLive

/// `poststore sync`: brings the store up to date with the source.
struct SyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Bring the store up to date with a source.",
        discussion: """
            Examples:
              poststore sync --from Samples/posts.json --store demo.sqlite
              poststore sync --from https://jsonplaceholder.typicode.com/posts --prune
              poststore sync --store demo.sqlite --format json
              cat posts.ndjson | poststore sync --from - --store json:store.json --dry-run
              poststore sync --from http://127.0.0.1:3000/posts --store replica.sqlite --prune --follow
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    @OptionGroup var options: StoreOptions

    @Option(
        name: .long,
        help: ArgumentHelp("An http(s) URL, a JSON or NDJSON file, or - for standard input.", valueName: "source")
    )
    var from: String?

    @Flag(name: .long, help: "Delete stored posts the source no longer has.")
    var prune = false

    /// `--force`, the usual spelling of "do it anyway" on a command line: the library's ``DeletionLimit/unlimited``.
    @Flag(
        name: .long,
        help: "Lift the deletion limit: prune even when that deletes more than half of the stored posts."
    )
    var force = false

    @Flag(name: .customLong("dry-run"), help: "Report what the sync would do, and write nothing.")
    var dryRun = false

    @Flag(
        name: .long,
        help: "Fetch every post, even from a source with a changes feed that could send only the changes."
    )
    var full = false

    @Flag(
        name: .long,
        help: "Keep following a poststore serve source, applying its changes as they commit, until interrupted."
    )
    var follow = false

    @Option(
        name: .long,
        parsing: .unconditional,
        help: "With --follow, seconds the source may hold each request while it has no change (default 30)."
    )
    var wait: Double?

    @Option(
        name: .customLong("page-size"),
        parsing: .unconditional,
        help: "Fetch an http(s) source in pages of N posts (_page/_limit)."
    )
    var pageSize: Int?

    @Option(name: .long, parsing: .unconditional, help: "Seconds each HTTP request may take.")
    var timeout: Double = 30

    @Option(
        name: .long,
        parsing: .unconditional,
        help: "Retries after the first attempt of a failed HTTP request (a follower retries on its own, without end)."
    )
    var retries: Int = 3

    @Option(
        name: .customLong("max-post-size"),
        parsing: .unconditional,
        help: ArgumentHelp(
            "Refuse a post of more than SIZE bytes of JSON (K, M, G: binary units; default: "
                + "\(ByteSize(bytes: PayloadLimits.defaultMaximumPostBytes).defaultValueDescription)).",
            valueName: "size"
        ),
        // A transform says what a size is when one is bad; it also hides the default, so the help names it.
        transform: ByteSize.parse
    )
    var maxPostSize = ByteSize(bytes: PayloadLimits.defaultMaximumPostBytes)

    @Option(
        name: .customLong("max-payload-size"),
        parsing: .unconditional,
        help: ArgumentHelp(
            "Refuse an http(s) answer (all pages together) or standard input of more than SIZE bytes (default: "
                + "\(ByteSize(bytes: PayloadLimits.defaultMaximumPayloadBytes).defaultValueDescription)).",
            valueName: "size"
        ),
        transform: ByteSize.parse
    )
    var maxPayloadSize = ByteSize(bytes: PayloadLimits.defaultMaximumPayloadBytes)

    @Option(name: .long, help: "text or json.")
    var format: Format = .text

    @Flag(name: .long, help: "Print nothing to standard error on success (no progress either, unless --progress).")
    var quiet = false

    @OptionGroup var progressOptions: ProgressOptions

    /// The longest `--timeout`: a day (a longer one would also overflow the milliseconds it is kept in).
    private static let maximumTimeout: Double = 86_400
    /// The most `--retries`: far more than helps, far below what would overflow a count of attempts.
    private static let maximumRetries = 100

    func validate() throws {
        if let pageSize, pageSize < 1 { throw ValidationError("--page-size must be at least 1 (got \(pageSize)).") }
        guard timeout >= 0.001, timeout <= Self.maximumTimeout else {
            throw ValidationError(
                "--timeout must be a number of seconds from 0.001 to 86400 (a day) (got \(timeout))."
            )
        }
        guard (0...Self.maximumRetries).contains(retries) else {
            throw ValidationError("--retries must be from 0 to \(Self.maximumRetries) (got \(retries)).")
        }
        if force && !prune { throw ValidationError("--force only makes sense with --prune.") }
        if let wait {
            guard follow else { throw ValidationError("--wait only makes sense with --follow.") }
            guard wait >= 0, wait <= Self.maximumTimeout else {
                throw ValidationError("--wait must be a number of seconds from 0 to 86400 (a day) (got \(wait)).")
            }
        }
        if follow && dryRun { throw ValidationError("--follow writes as it goes; it does not combine with --dry-run.") }
        if follow {
            try options.refuseInMemory("so the follower would keep nothing; name a file or database store")
        } else if !dryRun {
            try options.refuseInMemory(
                "so the sync would keep nothing; to check a source, use sync --dry-run, or name a file or database "
                    + "store"
            )
        }
    }

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        let spec = try options.spec()
        let source = try PostStoreConfiguration.Source.resolve(from, pageSize: pageSize, environment: environment)
        if follow, source.isFile {
            let what = source.description == "-" ? "standard input" : "a file"
            throw ValidationError(
                "--follow needs an http(s) source with a changes feed (poststore serve), not \(what)."
            )
        }
        try await Failure.report(Self.self, verbose: options.verbose) {
            let isDefaultStore = options.store == nil && (environment["POSTSTORE_STORE"] ?? "").isEmpty
            let sync = CommandLineSync(command: self, spec: spec, source: source, isDefaultStore: isDefaultStore)
            try sync.prepareStoreFolder()
            let sourceName = (source.isFile && source.description == "-" ? "standard input" : source.description)
                .withVisibleControls
            // A follower's retries are told on standard error as lines where no display draws them, and the last
            // one names the reason when the follower is stopped before it reached the source.
            let lastRetry = LockedState<String?>(nil)
            let progress = progressOptions.display(
                quiet: quiet,
                label: { phase in
                    switch phase {
                    case .downloading: "Downloading \(sourceName)"
                    // An http(s) source's posts are read from memory once downloaded.
                    case .reading: source.isFile ? "Reading \(sourceName)" : "Reading the downloaded posts"
                    default: ProgressDisplay.defaultLabel(phase)
                    }
                },
                retried: { [follow, quiet] notice, reason, isDrawn in
                    guard follow else { return }
                    lastRetry.withLock { $0 = reason }
                    if !isDrawn, !quiet { Output.error("poststore: \(notice)".withVisibleControls) }
                }
            )
            do {
                guard follow else {
                    try print(try await progress.showing { try await sync.run(progress: progress) }, store: spec)
                    return
                }
                // Until interrupted: a signal ends the work, whose write under way finishes first; once the first
                // sync is written, the command exits 0.
                let reached = LockedState(false)
                let stoppedBy = try await SignalCancellation.run {
                    let wait = Duration.milliseconds(Int64(((self.wait ?? 30) * 1000).rounded()))
                    // A follower may start before its source: the first sync is tried again as the follow is.
                    for try await report in sync.follow(wait: wait, progress: progress) {
                        // The first sync's progress line gives way to its report.
                        if !reached.withLock({ $0 }) { progress.clear() }
                        try print(report, store: spec)
                        reached.withLock { $0 = true }
                    }
                }
                // Stopped before the first sync was written: not a follow that ended well. Either the source could
                // not be reached, or its first copy was under way (stopped as a sync without --follow is).
                if !reached.withLock({ $0 }) {
                    if let retry = lastRetry.withLock({ $0 }) {
                        throw PostStoreError(
                            .sourceUnavailable,
                            "Stopped before \(sourceName) could be reached (\(retry)); nothing was written."
                        )
                    }
                    if let stoppedBy { InterruptHandler.stopUncommitted(by: stoppedBy) }
                }
            } catch {
                throw Self.advice(for: error, source: source)
            }
        }
    }

    /// Prints a report: a line on standard error first when the sync had to fetch every post again, then the
    /// report as a sentence or one JSON object on standard output.
    private func print(_ report: SyncReport, store spec: StoreSpec) throws {
        if let reason = report.refetchReason, !quiet {
            let line =
                "poststore: \(report.source) could not tell the changes since the last sync (\(reason)); fetched every "
                + "post again."
            Output.error(line.withVisibleControls)
        }
        switch format {
        case .json: Output.data(try SyncOutput(report: report, store: spec.description).json() + Data("\n".utf8))
        case .text: Output.line(Self.text(report, store: spec).withVisibleControls)
        }
    }

    /// The error a failed sync reports: the library's, with this command's advice where it differs.
    private static func advice(for error: any Error, source: PostStoreConfiguration.Source) -> any Error {
        guard let error = error as? PostStoreError else { return error }
        switch error.code {
        case .tooManyDeletions:
            // The library's advice ends "or lift the deletion limit."; here the flag that lifts it is named.
            let advice = error.message.hasSuffix(".") ? String(error.message.dropLast()) : error.message
            return PostStoreError(.tooManyDeletions, advice + " (--force).", cause: error)
        case .sourceNotFound where !source.isFile:
            // A URL that answers 404 is an unavailable source to a script (69); 66 is for missing files.
            return PostStoreError(.sourceUnavailable, error.message, path: error.path, cause: error)
        default:
            return error
        }
    }

    static func text(_ report: SyncReport, store spec: StoreSpec) -> String {
        let verb = report.dryRun ? "Dry run: would sync" : "Synced"
        // `memory:` would read `into memory::`.
        let store = spec.engine.locationKind == .none ? "an in-memory store" : "\(spec)"
        if report.notModified {
            return "\(verb) \(report.source) into \(store): not modified since the last sync."
        }
        let pages = "\(report.pages) page\(report.pages == 1 ? "" : "s")"
        let seconds = String(format: "%.2f", report.durationSeconds)
        let changes = "\(report.fetched) change\(report.fetched == 1 ? "" : "s")"
        let fetched = report.byChanges ? " by changes: \(changes)" : ": \(report.fetched) fetched"
        let deletions = "\(report.deletionsKept) deletion\(report.deletionsKept == 1 ? "" : "s")"
        let kept = report.deletionsKept == 0 ? "" : ", \(deletions) kept (no --prune)"
        return "\(verb) \(report.source) into \(store)\(fetched), \(report.inserted) inserted, "
            + "\(report.updated) updated, \(report.unchanged) unchanged, \(report.deleted) deleted\(kept) "
            + "(\(pages), \(seconds) s)."
    }
}
