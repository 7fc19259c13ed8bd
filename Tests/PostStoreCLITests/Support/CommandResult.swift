import Foundation

/// How one run of `poststore` ended, and what it wrote.
struct CommandResult: Sendable, CustomStringConvertible {
    /// The arguments it ran with, for messages.
    let arguments: [String]
    /// The exit code, or the signal's number when ``killedBySignal``.
    let status: Int32
    /// Whether a signal ended the process (a crash, or the timeout's kill).
    let killedBySignal: Bool
    /// Whether the process ran out of time and was killed.
    let timedOut: Bool
    /// Everything written to standard output.
    let standardOutput: Data
    /// Everything written to standard error.
    let standardError: Data

    /// Standard output as UTF-8 text.
    var output: String { String(decoding: standardOutput, as: UTF8.self) }

    /// Standard error as UTF-8 text.
    var errorOutput: String { String(decoding: standardError, as: UTF8.self) }

    /// Standard output's lines, without the empty one after the final newline.
    var outputLines: [String] { Self.lines(output) }

    /// Standard error's lines, without the empty one after the final newline.
    var errorLines: [String] { Self.lines(errorOutput) }

    /// The exit code, if the process exited rather than being killed by a signal.
    var exitCode: Int32? { killedBySignal ? nil : status }

    var description: String {
        let ending = timedOut ? "timed out" : killedBySignal ? "killed by signal \(status)" : "exit \(status)"
        return "poststore \(arguments.joined(separator: " ")): \(ending)\nstdout: \(output)\nstderr: \(errorOutput)"
    }

    /// Cut at each LF byte: `components(separatedBy: "\n")` compares `Character`s and so never splits a CRLF (one
    /// `Character`), which would hide a stray line break from a test counting lines.
    private static func lines(_ text: String) -> [String] {
        var lines = text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            .map { String(decoding: $0, as: UTF8.self) }
        if lines.last == "" { lines.removeLast() }
        return lines
    }
}
