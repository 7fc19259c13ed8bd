import Foundation

/// Runs the `sqlite3` command-line shell on a database and returns what it prints, trimmed.
///
/// The shell is found on the runner's `PATH` and runs with the runner's environment, through ``ChildProcess``; the
/// call blocks until it exits.
///
/// - Parameters:
///   - path: The database file.
///   - sql: The statements to run (`-batch` mode).
/// - Returns: Standard output without leading and trailing white space.
/// - Throws: ``SQLiteShellError`` when the shell does not exit 0; ``ChildProcess/Failure`` when it cannot start.
public func sqlite3(_ path: String, _ sql: String) throws -> String {
    let outcome = try ChildProcess.run(
        "/usr/bin/env",
        ["sqlite3", "-batch", path, sql],
        environment: ProcessInfo.processInfo.environment
    )
    guard outcome.termination == .exited(0) else {
        let errorText = String(decoding: outcome.standardError, as: UTF8.self)
        throw SQLiteShellError(message: "sqlite3 \(outcome.termination): \(errorText)")
    }
    return String(decoding: outcome.standardOutput, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
}

/// What ``sqlite3(_:_:)`` throws when the shell fails.
public struct SQLiteShellError: Error {
    /// The exit status and what the shell printed on standard error.
    public let message: String
}
