import ArgumentParser
import Foundation
import PostStore

/// `--progress` and `--no-progress`: whether a long command draws its progress on standard error.
struct ProgressOptions: ParsableArguments {
    @Flag(
        inversion: .prefixedNo,
        help: "Whether to draw progress on standard error (default: when it is a terminal and TERM is not dumb)."
    )
    var progress: Bool?

    /// Whether to draw: as asked, else only on a terminal that can redraw a line, and not when told to be quiet.
    func isEnabled(quiet: Bool, environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        progress ?? (!quiet && Output.standardErrorIsTerminal && environment["TERM"] != "dumb")
    }

    /// The display of a command: on standard error when enabled, clearing its line first on an interrupt.
    ///
    /// - Parameters:
    ///   - quiet: Whether the command was told to print nothing on success.
    ///   - label: What each phase's line calls it.
    func display(
        quiet: Bool = false,
        label: @escaping @Sendable (WorkProgress.Phase) -> String = ProgressDisplay.defaultLabel
    ) -> ProgressDisplay {
        ProgressDisplay(
            terminal: isEnabled(quiet: quiet) ? StandardErrorTerminal() : nil,
            ticks: true,
            label: label,
            lineShown: InterruptHandler.progressLine(shown:)
        )
    }
}
