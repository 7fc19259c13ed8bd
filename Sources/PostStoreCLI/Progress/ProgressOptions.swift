import ArgumentParser
import Foundation
import PostStore

/// `--progress` and `--no-progress`: whether a long command draws its progress on standard error.
struct ProgressOptions: ParsableArguments {
    @Flag(
        inversion: .prefixedNo,
        help: """
            Draw progress on standard error (--progress) or never (--no-progress); the last one given wins \
            (default: when it is a terminal and TERM names one other than dumb).
            """
    )
    var progress: Bool?

    /// Whether to draw: as asked, else only on a terminal that can redraw a line (`TERM` unset or empty names no
    /// such terminal, as `dumb` does), and not when told to be quiet.
    func isEnabled(
        quiet: Bool,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        standardErrorIsTerminal: Bool = Output.standardErrorIsTerminal
    ) -> Bool {
        let term = environment["TERM"] ?? ""
        return progress ?? (!quiet && standardErrorIsTerminal && !term.isEmpty && term != "dumb")
    }

    /// The display of a command: on standard error when enabled, clearing its line first on an interrupt.
    ///
    /// - Parameters:
    ///   - quiet: Whether the command was told to print nothing on success.
    ///   - label: What each phase's line calls it.
    ///   - retried: Told of each retry: its notice, the failure's reason, and whether the display draws it.
    func display(
        quiet: Bool = false,
        label: @escaping @Sendable (WorkProgress.Phase) -> String = ProgressDisplay.defaultLabel,
        retried: @escaping @Sendable (_ notice: String, _ reason: String, _ isDrawn: Bool) -> Void = { _, _, _ in }
    ) -> ProgressDisplay {
        ProgressDisplay(
            terminal: isEnabled(quiet: quiet) ? StandardErrorTerminal() : nil,
            ticks: true,
            label: label,
            lineShown: InterruptHandler.progressLine(shown:),
            retried: retried
        )
    }
}
