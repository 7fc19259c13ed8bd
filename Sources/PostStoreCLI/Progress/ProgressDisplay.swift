import Foundation
import PostStore

/// Draws long work's progress on a terminal: one live line for the phase under way, redrawn in place at most ten
/// times a second, and a line left on screen for each phase that finished, with its counts and elapsed time.
///
/// Between updates a ticker redraws the live line every ``redrawInterval``, so its time and rate move on while the
/// work is in one long step (an index built in one statement, a download) and the latest counts always show. A
/// display made without a terminal draws nothing (standard error is not a terminal, `--quiet`, `TERM` unset, empty
/// or `dumb`, `--no-progress`). A phase whose fraction falls (a download retried from its start) is timed afresh.
/// No colour is used, so `NO_COLOR` has nothing to turn off.
///
/// `@unchecked Sendable`: its mutable state (`storage`, `ticker`) is only read or written while holding `lock`
/// (`withState`), and the other properties are constants. The lock is an `NSLock`, not `Synchronization.Mutex`: the
/// ticker and the work contend for it, and on Linux the thread sanitizer does not see a contended `Mutex` (see
/// `WriteTurns`).
final class ProgressDisplay: @unchecked Sendable {
    /// The shortest time between two draws of a phase's live line.
    static let redrawInterval: Duration = .milliseconds(100)

    private let terminal: (any TerminalOutput)?
    private let clock: any ClockProtocol
    private let label: @Sendable (WorkProgress.Phase) -> String
    private let lineShown: @Sendable (Bool) -> Void
    private let retried: @Sendable (_ notice: String, _ reason: String, _ isDrawn: Bool) -> Void
    private let lock = NSLock()
    private var storage = State()
    private var ticker: Task<Void, Never>?

    private struct State {
        /// The phase under way, when one is: its latest update, when it began, and its line's label when the
        /// display's own does not apply.
        var live: (progress: WorkProgress, start: Duration, label: String?)?
        /// A retry's message, shown instead of the phase until the next update.
        var notice: String?
        /// When the live line was last drawn.
        var lastDraw: Duration?
        /// How many columns the live line on screen (no line break after it) takes; 0 when there is none.
        var liveColumns = 0
        var lineIsLive: Bool { liveColumns > 0 }
    }

    /// Creates a display.
    ///
    /// - Parameters:
    ///   - terminal: Where to draw, or `nil` to draw nothing.
    ///   - clock: Times the phases and the redraws.
    ///   - ticks: Whether a task redraws the live line between updates (tests call ``tick()`` themselves).
    ///   - label: What a phase's line calls it, for example "Reading posts.json".
    ///   - lineShown: Told whenever a live line appears or goes, so an interrupt can clear it first.
    ///   - retried: Told of each retry: its notice, the failure's reason, and whether the display draws it.
    init(
        terminal: (any TerminalOutput)?,
        clock: any ClockProtocol = SystemClock(),
        ticks: Bool = false,
        label: @escaping @Sendable (WorkProgress.Phase) -> String = ProgressDisplay.defaultLabel,
        lineShown: @escaping @Sendable (Bool) -> Void = { _ in },
        retried: @escaping @Sendable (_ notice: String, _ reason: String, _ isDrawn: Bool) -> Void = { _, _, _ in }
    ) {
        self.terminal = terminal
        self.clock = clock
        self.label = label
        self.lineShown = lineShown
        self.retried = retried
        if ticks, terminal != nil {
            let task = Task { [weak self] in
                while !Task.isCancelled {
                    try? await Task.sleep(for: Self.redrawInterval)
                    self?.tick()
                }
            }
            withState { _ in ticker = task }
        }
    }

    deinit {
        ticker?.cancel()
    }

    /// Runs `body` on the state while holding the lock.
    private func withState<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&storage)
    }

    /// Whether the display draws at all.
    var isEnabled: Bool { terminal != nil }

    /// Shows one sync event: a phase's progress, or a retry.
    @Sendable func show(_ event: SyncProgress) {
        switch event {
        case .working(let progress):
            show(progress)
        case .retrying(let attempt, let delay, let reason):
            // The delay first: a line cut to the terminal's width keeps it.
            let text = "Retrying in \(NumberText.seconds(delay)) (attempt \(attempt) failed: \(reason))..."
            retried(text, reason, isEnabled)
            update { state, _ in
                state.notice = text.withVisibleControls
                return true
            }
        case .applied:
            break
        }
    }

    /// Shows a phase's progress: its live line (at most every ``redrawInterval``), or its finished line.
    @Sendable func show(_ progress: WorkProgress) {
        show(progress, label: nil)
    }

    /// What draws the progress of opening the store `name` (a stale search index rebuilt), its line naming the
    /// store: a command may open two, and the work of opening is not the command's own.
    func opening(_ name: String) -> @Sendable (WorkProgress) -> Void {
        let label = "Rebuilding the search index of \(name.withVisibleControls)"
        return { [self] progress in show(progress, label: progress.phase == .indexing ? label : nil) }
    }

    private func show(_ progress: WorkProgress, label: String?) {
        update { state, now in
            state.notice = nil
            if let live = state.live, live.progress.phase == progress.phase, live.label == label,
                (progress.fraction ?? 1) >= (live.progress.fraction ?? 0)
            {
                state.live = (progress, live.start, label)
            } else {
                // A new phase, or one started over (a retried download): drawn at once, its time counted afresh.
                state.live = (progress, now, label)
                state.lastDraw = nil
            }
            return progress.isFinished
        }
    }

    /// Redraws the live line if it has not been drawn for ``redrawInterval``: its time moves on, and an update that
    /// came too soon after the last draw shows.
    func tick() {
        update { _, _ in false }
    }

    /// Runs a command's work while the display draws its progress, then erases the live line, whether the work
    /// returns or throws: an error's message, printed next, starts a clean line.
    func showing<Result>(_ work: () async throws -> Result) async rethrows -> Result {
        defer { clear() }
        return try await work()
    }

    /// Erases the live line, if one is on screen, and stops the ticker: before an error's message, so that it
    /// starts a clean line, and when the work is done.
    func clear() {
        withState { _ in ticker?.cancel() }
        guard let terminal else { return }
        withState { state in
            state.live = nil
            state.notice = nil
            guard state.lineIsLive else { return }
            terminal.write(Self.erasing(&state, width: terminal.width))
            lineShown(false)
        }
    }

    /// Runs `write`, which writes a line of its own to the terminal (a log line), with the live line erased first
    /// and drawn again after it, so that the two never mix.
    func writingAbove(_ write: () -> Void) {
        guard let terminal else { return write() }
        withState { state in
            if state.lineIsLive { terminal.write(Self.erasing(&state, width: terminal.width)) }
            write()
            draw(&state, at: clock.uptime(), on: terminal)
        }
    }

    /// Changes the state and draws what it then shows: at once when `change` says so (a phase's end, a retry),
    /// else when the live line was not drawn for ``redrawInterval``. The drawing happens under the lock, so lines
    /// from an update and from the ticker never mix.
    private func update(_ change: (inout State, Duration) -> Bool) {
        guard let terminal else { return }
        let now = clock.uptime()
        withState { state in
            let drawsNow = change(&state, now)
            if !drawsNow, let last = state.lastDraw, now - last < Self.redrawInterval { return }
            draw(&state, at: now, on: terminal)
        }
    }

    /// Draws the phase under way over the live line: its finished line, or its live line. The caller holds the lock.
    private func draw(_ state: inout State, at now: Duration, on terminal: any TerminalOutput) {
        guard let live = state.live else { return }
        let width = terminal.width
        let wasLive = state.lineIsLive
        let erase = Self.erasing(&state, width: width)
        let label = live.label ?? label(live.progress.phase)
        if live.progress.isFinished {
            let line = ProgressLine(
                label: label,
                progress: live.progress,
                elapsed: now - live.start
            )
            terminal.write(erase + line.text(width: width - 1) + "\n")
            state.live = nil
            state.lastDraw = nil
            if wasLive { lineShown(false) }
            return
        }
        // Two columns short of the width: Ctrl-C's echoed `^C` must fit on the line's row, where the interrupt
        // handler erases it (a line one column short had it wrap onto the next row, leaving the line above).
        let liveWidth = width - 2
        let text =
            state.notice.map { ProgressLine.fitted($0, width: liveWidth) }
            ?? ProgressLine(label: label, progress: live.progress, elapsed: now - live.start).text(width: liveWidth)
        terminal.write(erase + text)
        state.lastDraw = now
        state.liveColumns = max(1, ProgressLine.columns(text))
        if !wasLive { lineShown(true) }
    }

    /// What takes the cursor to the start of the live line and erases it, and marks it gone; a carriage return
    /// when there is none.
    ///
    /// A window narrowed since the line was drawn has rewrapped it onto several rows, the cursor on the last (as
    /// tmux, GNOME Terminal, iTerm2, kitty and Windows Terminal do), so the cursor goes up to its first row and
    /// everything from there down is erased (ECMA-48 CUU and ED 0); else the line is erased (EL 0).
    private static func erasing(_ state: inout State, width: Int) -> String {
        defer { state.liveColumns = 0 }
        let rows = (state.liveColumns + max(1, width) - 1) / max(1, width)
        guard rows > 1 else { return "\r" + eraseToEnd }
        return "\u{1B}[\(rows - 1)A\r\u{1B}[J"
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
