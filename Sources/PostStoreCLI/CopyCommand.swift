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

    func run() async throws {
        let from = try StoreSpec(option: fromStore)
        let to = try StoreSpec(option: toStore)
        guard from != to else { throw ValidationError("--from-store and --to-store are the same store.") }
        try await Failure.report(verbose: verbose) {
            try StoreOptions.checkFolder(of: to)
            let source = try await StoreOptions.store(from, openMode: .openExisting)
            let posts = try await source.query(.all)
            let summary = try await Self.write(posts, into: to)
            // The paths are the user's: their controls are shown, not sent, and the summary stays one line.
            Output.line(
                ("Copied \(posts.count) posts from \(from) to \(to) (\(summary.inserted) inserted, "
                    + "\(summary.updated) updated, \(summary.unchanged) unchanged).").withVisibleControls
            )
        }
    }

    /// Writes `posts` into `spec`, into a new store built off to the side when its file is missing (see
    /// ``NewStoreWrite``).
    private static func write(_ posts: [Post], into spec: StoreSpec) async throws -> WriteSummary {
        let changes = PostChangeSet(upserts: posts)
        guard let newStore = try NewStoreWrite.begin(spec) else {
            return try await StoreOptions.store(spec, openMode: .createIfMissing).apply(changes)
        }
        defer { newStore.discard() }
        let summary = try await newStore.build {
            try await StoreOptions.store(newStore.stagedSpec, openMode: .createIfMissing, buildsOffToTheSide: true)
                .apply(changes)
        }
        if try newStore.publish() { return summary }
        // Another process created the store meanwhile: write into it as any later copy would.
        try StoreOptions.refuseFolder(spec, openMode: .createIfMissing)
        return try await StoreOptions.store(spec, openMode: .createIfMissing).apply(changes)
    }
}
