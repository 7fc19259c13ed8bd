import ArgumentParser
import Foundation
import PostStore
import PostStoreEngines
import PostStoreLive

/// `poststore migrate`: applies a store's pending schema migrations (SQLite and PostgreSQL have them), or lists them.
struct MigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Apply a store's pending schema migrations, or list applied and pending ones with --status.",
        discussion: """
            Examples:
              poststore migrate --store demo.sqlite --status
              poststore migrate --store demo.sqlite
            """
    )

    @OptionGroup var options: StoreOptions

    @Flag(name: .long, help: "List the applied and pending migrations; change nothing.")
    var status = false

    @OptionGroup var progressOptions: ProgressOptions

    func validate() throws {
        try options.refuseInMemory("so there is nothing to migrate; name a file or database store")
    }

    func run() async throws {
        let spec = try options.spec()
        try await Failure.report(Self.self, verbose: options.verbose) {
            guard let location = spec.location, let migrationStatus = spec.engine.migrationStatus else {
                // Opening checks the store is there and readable, as for a store with migrations.
                _ = try await StoreOptions.store(spec, openMode: .openExisting)
                let withMigrations = StoreEngine.all.filter { $0.migrationStatus != nil }.map(\.scheme)
                Output.line(
                    ("\(spec) has no migrations: only \(withMigrations.joined(separator: ", ")) stores do "
                        + "(\(spec.engine.withoutMigrationsBecause)).").withVisibleControls
                )
                return
            }
            // The schema status opens the file itself, so a folder is refused here first.
            try StoreOptions.refuseFolder(spec, openMode: .openExisting)
            let before = try await StoreOptions.pointingAtSync(spec) { try await migrationStatus(location) }
            if status {
                for name in before.applied { Output.line("applied  \(name)") }
                for name in before.pending { Output.line("pending  \(name)") }
                return
            }
            // Opening migrates, and rebuilds a search index left stale by a connection that did not keep it.
            let progress = progressOptions.display()
            _ = try await progress.showing {
                try await StoreOptions.store(
                    spec,
                    openMode: .openExisting,
                    progress: progress.opening(spec.description)
                )
            }
            let after = try await migrationStatus(location)
            let count = after.applied.count - before.applied.count
            Output.line("Applied \(count) migration\(count == 1 ? "" : "s"); schema version \(after.version).")
        }
    }
}
