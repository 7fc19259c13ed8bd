import PostStore
import Synchronization

/// Draws long work's progress on a terminal: one live line for the phase under way, redrawn in place at most ten
/// times a second, and a line left on screen for each phase that finished, with its counts and elapsed time.
///
/// A display made without a terminal draws nothing (standard error is not a terminal, `--quiet`, `TERM=dumb`,
/// `--no-progress`). No colour is used, so `NO_COLOR` has nothing to turn off.
final class ProgressDisplay: Sendable {
    /// The shortest time between two redraws of a phase's live line.
    static let redrawInterval: Duration = .milliseconds(100)

    private let terminal: (any TerminalOutput)?
    private let clock: any ClockProtocol
    private let label: @Sendable (WorkProgress.Phase) -> String
    private let lineShown: @Sendable (Bool) -> Void
    private let state = Mutex(State())

    private struct State {
        /// The phase under way, when one is, and when it began.
        var phase: (phase: WorkProgress.Phase, start: Duration)?
        /// When the live line was last drawn.
        var lastDraw: Duration?
        /// Whether a live line (no line break after it) is on screen.
        var lineIsLive = false
    }

    /// Creates a display.
    ///
    /// - Parameters:
    ///   - terminal: Where to draw, or `nil` to draw nothing.
    ///   - clock: Times the phases and the redraws.
    ///   - label: What a phase's line calls it, for example "Reading posts.json".
    ///   - lineShown: Told whenever a live line appears or goes, so an interrupt can clear it first.
    init(
        terminal: (any TerminalOutput)?,
        clock: any ClockProtocol = SystemClock(),
        label: @escaping @Sendable (WorkProgress.Phase) -> String = ProgressDisplay.defaultLabel,
        lineShown: @escaping @Sendable (Bool) -> Void = { _ in }
    ) {
        self.terminal = terminal
        self.clock = clock
        self.label = label
        self.lineShown = lineShown
    }

    /// Whether the display draws at all.
    var isEnabled: Bool { terminal != nil }

    /// Shows one sync event: a phase's progress, or a retry.
    @Sendable func show(_ event: SyncProgress) {
        switch event {
        case .working(let progress):
            show(progress)
        case .retrying(let attempt, let delay, let reason):
            let text = "Attempt \(attempt) failed (\(reason)); retrying in \(NumberText.seconds(delay))..."
            draw(live: text.withVisibleControls)
        case .applied:
            break
        }
    }

    /// Shows a phase's progress: its live line (at most every ``redrawInterval``), or its finished line.
    @Sendable func show(_ progress: WorkProgress) {
        guard let terminal else { return }
        let now = clock.uptime()
        let text: String? = state.withLock { state in
            if state.phase?.phase != progress.phase {
                state.phase = (progress.phase, now)
                state.lastDraw = nil
            }
            let line = ProgressLine(
                label: label(progress.phase),
                progress: progress,
                elapsed: now - (state.phase?.start ?? now)
            )
            if progress.isFinished {
                state.phase = nil
                state.lastDraw = nil
                state.lineIsLive = false
                return "\r" + line.text(width: terminal.width - 1) + Self.eraseToEnd + "\n"
            }
            if let last = state.lastDraw, now - last < Self.redrawInterval { return nil }
            state.lastDraw = now
            state.lineIsLive = true
            return "\r" + line.text(width: terminal.width - 1) + Self.eraseToEnd
        }
        guard let text else { return }
        terminal.write(text)
        lineShown(!progress.isFinished)
    }

    /// Erases the live line, if one is on screen: before an error's message, so that it starts a clean line.
    func clear() {
        guard let terminal else { return }
        let wasLive = state.withLock { state in
            defer {
                state.lineIsLive = false
                state.phase = nil
            }
            return state.lineIsLive
        }
        if wasLive {
            terminal.write("\r" + Self.eraseToEnd)
            lineShown(false)
        }
    }

    /// Draws a live line at once, whatever the redraw interval.
    private func draw(live text: String) {
        guard let terminal else { return }
        let now = clock.uptime()
        state.withLock { state in
            state.lastDraw = now
            state.lineIsLive = true
        }
        terminal.write("\r" + ProgressLine.fitted(text, width: terminal.width - 1) + Self.eraseToEnd)
        lineShown(true)
    }

    /// Erases from the cursor to the end of the line (ECMA-48 EL 0): what a shorter redraw leaves behind.
    static let eraseToEnd = "\u{1B}[K"

    /// The phases' names on their own.
    @Sendable static func defaultLabel(_ phase: WorkProgress.Phase) -> String {
        switch phase {
        case .downloading: "Downloading"
        case .reading: "Reading"
        case .writing: "Writing posts"
        case .indexing: "Building the search index"
        case .pruning: "Pruning"
        }
    }
}
