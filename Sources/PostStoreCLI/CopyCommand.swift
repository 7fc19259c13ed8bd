import ArgumentParser
import Foundation
import PostStore
import PostStoreLive

/// `poststore copy`: copies every post from one store to another, whatever their engines.
struct CopyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "copy",
        abstract: "Copy every post from one store to another (for example a JSON file into SQLite).",
        discussion: """
            Examples:
              poststore copy --from-store json:posts.json --to-store posts.sqlite
              poststore copy --from-store posts.sqlite --to-store json:backup.json
            """
    )

    @Option(
        name: .customLong("from-store"),
        help: ArgumentHelp(
            "The store to read: \(StoreSpec.spellings), or a path ending in \(StoreSpec.fileExtensions).",
            valueName: "spec"
        )
    )
    var fromStore: String

    @Option(
        name: .customLong("to-store"),
        help: ArgumentHelp("The store to write, spelled the same way; created if missing.", valueName: "spec")
    )
    var toStore: String

    @Flag(name: .long, help: "On failure, print the error code and its cause too.")
    var verbose = false

    @OptionGroup var progressOptions: ProgressOptions

    func validate() throws {
        _ = try stores()
    }

    func run() async throws {
        let (from, to) = try stores()
        try await Failure.report(Self.self, verbose: verbose) {
            try StoreOptions.checkFolder(of: to)
            let fromName = from.description.withVisibleControls
            let progress = progressOptions.display { phase in
                phase == .reading ? "Reading \(fromName)" : ProgressDisplay.defaultLabel(phase)
            }
            let (posts, summary) = try await progress.showing {
                // Opening either store may rebuild its stale search index, which is drawn too.
                let source = try await StoreOptions.store(
                    from,
                    openMode: .openExisting,
                    progress: progress.opening(from.description)
                )
                // The reading phase spans the query and the handing over of its posts, which a store that writes
                // as it reads (SQLite) writes meanwhile.
                progress.show(WorkProgress(phase: .reading, completed: 0, total: try await source.count()))
                let posts = try await source.query(.all)
                return (posts, try await Self.write(posts, into: to, progress: progress))
            }
            // The paths are the user's: their controls are shown, not sent, and the summary stays one line.
            Output.line(
                ("Copied \(posts.count) posts from \(from) to \(to) (\(summary.inserted) inserted, "
                    + "\(summary.updated) updated, \(summary.unchanged) unchanged).").withVisibleControls
            )
        }
    }

    /// The two stores, once they are known to be two, and both outlive the command.
    private func stores() throws(ValidationError) -> (from: StoreSpec, to: StoreSpec) {
        let from = try StoreSpec(option: fromStore)
        let to = try StoreSpec(option: toStore)
        try StoreOptions.refuseInMemory(
            from,
            named: "--from-store",
            "so there is nothing to copy; name a file or database store"
        )
        try StoreOptions.refuseInMemory(
            to,
            named: "--to-store",
            "so the copied posts would be lost; name a file or database store"
        )
        guard !from.namesSameStore(as: to) else {
            throw ValidationError("--from-store and --to-store are the same store.")
        }
        return (from, to)
    }

    /// Writes `posts` into `spec`, into a new store staged when its file is missing (see
    /// ``InterruptSafeWrite``).
    ///
    /// - Parameter interruptSafeWrite: Tells the process's signal handling of the commit (a test's, in tests).
    static func write(
        _ posts: [Post],
        into spec: StoreSpec,
        progress: ProgressDisplay,
        interruptSafeWrite: InterruptSafeWrite = InterruptSafeWrite()
    ) async throws -> WriteSummary {
        let stream = PostStream.reporting(posts, report: progress.show)
        let write = { (store: any PostStoreProtocol) in
            try await store.apply(PostChangeSet(), streaming: stream, progress: progress.show)
        }
        return try await interruptSafeWrite.run(
            into: spec,
            intoNewStore: { staged in
                try await write(StoreOptions.store(staged, openMode: .createIfMissing, isStaged: true))
            },
            intoExistingStore: { committed in
                let summary = try await write(
                    StoreOptions.store(spec, openMode: .createIfMissing, progress: progress.opening(spec.description))
                )
                // The write into an existing store has committed: a signal lets the copy finish.
                committed()
                return summary
            }
        )
    }
}
