import Foundation

/// Runs the `sqlite3` command-line shell on a database and returns what it prints, trimmed.
public func sqlite3(_ path: String, _ sql: String) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["sqlite3", "-batch", path, sql]
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try ProcessLaunch.run(process)
    let data = output.fileHandleForReading.readDataToEndOfFile()
    let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
        throw SQLiteShellError(message: "sqlite3 exited \(process.terminationStatus): \(errorText)")
    }
    return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
}

/// What ``sqlite3(_:_:)`` throws when the shell fails.
public struct SQLiteShellError: Error {
    /// The exit status and what the shell printed on standard error.
    public let message: String
}
