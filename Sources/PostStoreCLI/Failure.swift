import ArgumentParser
import Foundation
import PostStore

/// Turns what a command throws into one line on standard error and the documented exit code.
enum Failure {
    /// Runs a command's body, reporting a ``PostStoreError`` as `poststore: message` and exiting with its code.
    ///
    /// - Parameters:
    ///   - command: The command that runs, whose help a usage error points at.
    ///   - verbose: Whether to print the error's code and cause too.
    ///   - body: The command's work.
    static func report<Result>(
        _ command: any ParsableCommand.Type,
        verbose: Bool,
        _ body: () async throws -> Result
    ) async throws -> Result {
        do {
            return try await body()
        } catch let error as PostStoreError {
            // One line whatever the message quotes (a path, a server's answer): controls are shown, not sent.
            let message = (verbose ? error.description : error.message).withVisibleControls
            // A usage error points at the help, as the argument parser's own do.
            Output.error(
                exitCode(for: error.code) == 64 && !verbose
                    ? usageLine(message, command: command) : "poststore: \(message)"
            )
            throw ExitCode(exitCode(for: error.code))
        }
    }

    /// A usage error's line: `poststore: message (see 'poststore query --help')`, the message's final period
    /// dropped.
    ///
    /// - Parameters:
    ///   - message: What is wrong, on one line.
    ///   - command: The subcommand that was run, whose help has its options; `nil` (or the root) for the tool's.
    static func usageLine(_ message: String, command: (any ParsableCommand.Type)?) -> String {
        var message = message
        if message.hasSuffix(".") { message.removeLast() }
        return "poststore: \(message) (see '\(help(of: command))')"
    }

    /// `poststore query --help`, or `poststore --help` for the root command or none.
    static func help(of command: (any ParsableCommand.Type)?) -> String {
        guard let command, command != PostStoreCommand.self, let name = command.configuration.commandName else {
            return "poststore --help"
        }
        return "poststore \(name) --help"
    }

    /// The exit code documented for an error code.
    static func exitCode(for code: PostStoreError.Code) -> Int32 {
        switch code {
        case .invalidArgument, .invalidQuery: 64
        case .invalidData, .constraintViolation: 65
        case .storeNotFound, .sourceNotFound: 66
        case .sourceUnavailable, .storeUnavailable: 69
        case .accessDenied: 77
        case .corruptStore, .unsupportedVersion, .migrationMismatch, .ioFailure, .storeBusy: 74
        default: 1
        }
    }
}
