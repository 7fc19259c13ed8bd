import ArgumentParser
import Foundation
import PostStore

/// Turns what a command throws into one line on standard error and the documented exit code.
enum Failure {
    /// Runs a command's body, reporting a ``PostStoreError`` as `poststore: message` and exiting with its code.
    static func report<Result>(verbose: Bool, _ body: () async throws -> Result) async throws -> Result {
        do {
            return try await body()
        } catch let error as PostStoreError {
            // One line whatever the message quotes (a path, a server's answer): controls are shown, not sent.
            let message = (verbose ? error.description : error.message).withVisibleControls
            // A usage error points at the help, as the argument parser's own do.
            Output.error(exitCode(for: error.code) == 64 && !verbose ? usageLine(message) : "poststore: \(message)")
            throw ExitCode(exitCode(for: error.code))
        }
    }

    /// A usage error's line: `poststore: message (see 'poststore --help')`, the message's final period dropped.
    static func usageLine(_ message: String) -> String {
        var message = message
        if message.hasSuffix(".") { message.removeLast() }
        return "poststore: \(message) (see 'poststore --help')"
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
