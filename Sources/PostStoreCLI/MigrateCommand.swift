import ArgumentParser
import Foundation
import PostStore

/// `poststore migrate`: applies a SQLite store's pending migrations, or lists them.
struct MigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Apply a SQLite store's pending migrations, or list applied and pending ones with --status.",
        discussion: """
            Examples:
              poststore migrate --store demo.sqlite --status
              poststore migrate --store demo.sqlite
            """
    )

    @OptionGroup var options: StoreOptions

    @Flag(name: .long, help: "List the applied and pending migrations; change nothing.")
    var status = false

    func run() async throws {
        let spec = try options.spec()
        try await Failure.report(verbose: options.verbose) {
            guard case .sqlite(let path) = spec else {
                // Opening checks the store is there and readable, as for a SQLite store.
                _ = try StoreOptions.store(spec, openMode: .openExisting)
                let why =
                    spec.path == nil
                    ? "an in-memory store lasts one command" : "a JSON store's format is versioned as a whole"
                Output.line("\(spec) has no migrations: only SQLite stores do (\(why)).".withVisibleControls)
                return
            }
            // The schema status opens the file itself, so a folder is refused here first.
            try StoreOptions.refuseFolder(spec, openMode: .openExisting)
            let before = try StoreOptions.pointingAtSync(spec) { try SQLitePostStore.schemaStatus(ofStoreAt: path) }
            if status {
                for migration in before.applied { Output.line("applied  \(Self.name(migration))") }
                for migration in before.pending { Output.line("pending  \(Self.name(migration))") }
                return
            }
            _ = try StoreOptions.store(spec, openMode: .openExisting)
            let after = try SQLitePostStore.schemaStatus(ofStoreAt: path)
            let count = after.applied.count - before.applied.count
            Output.line("Applied \(count) migration\(count == 1 ? "" : "s"); schema version \(after.version).")
        }
    }

    private static func name(_ migration: SQLiteSchemaStatus.Migration) -> String {
        migration.name
    }
}
