import Foundation
import PostStoreTestSupport

/// A real terminal for end-to-end tests of what `poststore` draws: a command run in a detached tmux session on a
/// private server, whose screen a test reads as a user would see it (`tmux capture-pane`).
///
/// Tests that need it are enabled only where tmux is installed (`.ci/run` installs it).
struct TmuxScreen {
    /// Whether tmux can be run here.
    static let isAvailable = FileManager.default.isExecutableFile(atPath: executable)

    private static let executable = "/usr/bin/tmux"

    /// The folder of the private server's socket: a user's own tmux sessions are never touched, and nothing is left
    /// in tmux's own folder.
    private let folder: TemporaryDirectory

    private var socket: String { folder.file("tmux.socket") }

    /// Starts a shell command line (run by `sh -c`) in a terminal of `width` × `height`; the pane stays on screen
    /// after the command ends.
    init(_ commandLine: String, width: Int, height: Int = 24) throws {
        folder = try TemporaryDirectory()
        // One invocation: the pane must be kept before the command can end.
        try tmux(
            ["-f", "/dev/null", "set-option", "-g", "remain-on-exit", "on", ";"]
                + ["new-session", "-d", "-s", "test", "-x", "\(width)", "-y", "\(height)", commandLine]
        )
    }

    /// `env -i` with exactly `environment`, quoted for the shell: put before a command to run it in that
    /// environment.
    static func env(_ environment: [String: String]) -> String {
        "env -i "
            + environment.sorted { $0.key < $1.key }.map { "\($0.key)=\(quoted($0.value))" }
            .joined(separator: " ")
    }

    /// `text` as one shell word.
    static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }

    /// The screen's lines, from the top of its history (a dead pane's last screen may have scrolled), trailing blank
    /// lines and tmux's own "Pane is dead" line left out.
    func lines() throws -> [String] {
        var lines = try tmux(["capture-pane", "-p", "-S", "-", "-t", "test"]).components(separatedBy: "\n")
        lines = lines.filter { !$0.hasPrefix("Pane is dead") }
        while lines.last?.isEmpty == true { lines.removeLast() }
        return lines
    }

    /// Whether the command has ended.
    func hasEnded() throws -> Bool {
        try tmux(["display-message", "-p", "-t", "test", "#{pane_dead}"]).hasPrefix("1")
    }

    /// Types keys, in tmux's names (`C-c` is Ctrl-C).
    func send(_ keys: String) throws {
        try tmux(["send-keys", "-t", "test", keys])
    }

    /// Waits until `condition` holds of the screen's lines, or `timeout` passes; returns the last lines read.
    ///
    /// Its timeout and ``finalScreen(upTo:)``'s are ceilings for a screen that never shows what is wanted, not waits
    /// that pass: the screens tested draw within seconds in a plain run (a sanitizer's slowdown is not measured).
    @discardableResult
    func wait(
        upTo timeout: Duration = .seconds(60),
        until condition: ([String]) throws -> Bool
    ) async throws -> [String] {
        let deadline = ContinuousClock.now + timeout
        while true {
            let lines = try lines()
            if try condition(lines) || ContinuousClock.now >= deadline { return lines }
            try await Task.sleep(for: .milliseconds(50))  // a poll: tmux tells no one when its screen changes
        }
    }

    /// Waits for the command to end, then returns the screen.
    func finalScreen(upTo timeout: Duration = hangLimit) async throws -> [String] {
        let deadline = ContinuousClock.now + timeout
        while try !hasEnded(), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))  // a poll: the command is tmux's child, not ours to wait for
        }
        return try lines()
    }

    /// Stops the private server and everything in it.
    func close() {
        _ = try? tmux(["kill-server"])
    }

    /// Runs a tmux command of the private server and returns what it printed.
    ///
    /// Through ``ChildProcess`` (`posix_spawn` and `waitid`): the short commands block the calling thread for a
    /// moment only.
    @discardableResult
    private func tmux(_ arguments: [String]) throws -> String {
        let outcome = try ChildProcess.run(
            Self.executable,
            ["-S", socket] + arguments,
            environment: ["PATH": "/usr/bin:/bin"],
            timeout: .seconds(10)
        )
        return String(decoding: outcome.standardOutput, as: UTF8.self)
    }
}
