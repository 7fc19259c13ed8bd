import ArgumentParser
import Foundation
import PostStore
import PostStoreLive

/// `poststore`: sync JSONPlaceholder-style posts into a store and query them.
@main
struct PostStoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "poststore",
        abstract: "Sync JSONPlaceholder-style posts into a store, and query them.",
        discussion: """
            Stores: --store \(StoreSpec.spellings) (or a path ending in \(StoreSpec.fileExtensions)); \
            default $POSTSTORE_STORE, else $XDG_DATA_HOME/poststore/posts.sqlite; memory: lasts one command, so \
            only serve --allow-writes and sync --dry-run take it.
            Exit codes: 0 ok, 64 usage, 65 bad data from the source, 66 no such store or input, 69 source or \
            database server unavailable, 74 store cannot be read or written, 77 login or privilege refused by the \
            database server, 1 anything else.
            """,
        version: PostStoreRelease.version,
        subcommands: [
            SyncCommand.self, QueryCommand.self, InfoCommand.self, MigrateCommand.self, CopyCommand.self,
            ServeCommand.self,
        ]
    )

    /// Runs the command. A usage error is one line, `poststore: …`, with a pointer to the help of the command that was
    /// run (then its whole help with `--verbose`); help, the version and failures the commands reported themselves end as
    /// argument-parser ends them. A command line whose command is not one (`poststore qeury`) is one line whatever
    /// it holds, naming the nearest command (see ``NamedCommand``).
    static func main() async {
        InterruptHandler.install()
        let arguments = Array(CommandLine.arguments.dropFirst())
        let named = NamedCommand(arguments, among: configuration.subcommands)
        if let problem = named.problem {
            FileHandle.standardError.write(
                Data("\(Failure.usageLine(oneLine(problem), command: named.command))\n".utf8)
            )
            Foundation.exit(ExitCode.validationFailure.rawValue)
        }
        // Until parsing succeeds, the command the arguments name; then the one parsed.
        var ran = named.command
        do {
            var command = try parseAsRoot(arguments)
            ran = type(of: command)
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch {
            let code = exitCode(for: error)
            if code == .success || error is ExitCode { exit(withError: error) }
            var line = oneLine(message(for: error))
            if line.isEmpty { line = oneLine("\(error)") }
            var text = Failure.usageLine(line, command: ran) + "\n"
            if arguments.contains("--verbose") { text += "\n" + helpMessage(for: ran ?? Self.self) + "\n" }
            FileHandle.standardError.write(Data(text.utf8))
            Foundation.exit(code.rawValue)
        }
    }

    /// A message on one line: trailing line breaks dropped, argument-parser's list of allowed values
    /// (`…following:\n  - id\n  - title`) joined as `…following: id, title`, any other control character (a CR or LF
    /// in a value the message quotes, an escape) shown as an escape such as `\r\n`, so nothing is cut off and nothing
    /// reaches the terminal. Decided on scalars: `"\r\n"` is one `Character`, which `split(separator: "\n")` does not
    /// split.
    static func oneLine(_ message: String) -> String {
        let listed = message.replacing(":\n  - ", with: ": ").replacing("\n  - ", with: ", ")
        var scalars = Substring(listed).unicodeScalars
        while let last = scalars.last, last == "\n" || last == "\r" { scalars.removeLast() }
        return String(String.UnicodeScalarView(scalars)).withVisibleControls
    }
}
