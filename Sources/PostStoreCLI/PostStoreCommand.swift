import ArgumentParser

/// `poststore`: sync JSONPlaceholder-style posts into a store and query them.
@main
struct PostStoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "poststore",
        abstract: "Sync JSONPlaceholder-style posts into a store, and query them.",
        discussion: """
            Stores: --store sqlite:PATH | json:PATH | memory: (or a path ending in .sqlite, .sqlite3, .db or .json); \
            default $POSTSTORE_STORE, else $XDG_DATA_HOME/poststore/posts.sqlite.
            Exit codes: 0 ok, 64 usage, 65 bad data from the source, 66 no such store or input, 69 source \
            unavailable, 74 store cannot be read or written, 1 anything else.
            """,
        version: "0.1.0",
        subcommands: [SyncCommand.self, QueryCommand.self, InfoCommand.self, MigrateCommand.self, CopyCommand.self]
    )
}
