import Synchronization

@testable import PostStoreCLI

/// A terminal for the progress display's tests: a width that a test can change (a resize), and a screen that
/// interprets what the display writes — printable text, carriage return, line feed and "erase to the end of the
/// line" — as a terminal would, refusing anything else, so a test can read what a user would see.
final class FakeTerminal: TerminalOutput {
    private struct State {
        var width: Int
        var lines: [String] = [""]
        var column = 0
        var writes: [String] = []
        /// Every line written past the width (a real terminal would have wrapped it).
        var overflowed: [String] = []
    }

    private let state: Mutex<State>

    init(width: Int) {
        state = Mutex(State(width: width))
    }

    var width: Int { state.withLock { $0.width } }

    /// Changes the width, as a resized window does: lines that no longer fit are cut (tmux cuts a line that was not
    /// wrapped, and shows it whole again if the window grows back).
    func resize(to width: Int) {
        state.withLock { state in
            state.width = width
            state.lines = state.lines.map { String($0.prefix(width)) }
            state.column = min(state.column, width)
        }
    }

    /// Every write, in order.
    var writes: [String] { state.withLock { $0.writes } }

    /// The screen's lines, the cursor's line last (empty when the cursor is at a line's start).
    var lines: [String] { state.withLock { $0.lines } }

    /// The lines that grew wider than the terminal.
    var overflowed: [String] { state.withLock { $0.overflowed } }

    func write(_ text: String) {
        state.withLock { state in
            state.writes.append(text)
            var rest = Substring(text)
            while let character = rest.first {
                if rest.hasPrefix("\u{1B}[K") {
                    let line = state.lines[state.lines.count - 1]
                    state.lines[state.lines.count - 1] = String(line.prefix(state.column))
                    rest = rest.dropFirst(3)
                    continue
                }
                rest = rest.dropFirst()
                switch character {
                case "\r":
                    state.column = 0
                case "\n":
                    state.lines.append("")
                    state.column = 0
                default:
                    precondition(character.asciiValue.map { $0 >= 0x20 && $0 < 0x7F } ?? true, "a control: \(text)")
                    var line = Array(state.lines[state.lines.count - 1])
                    if state.column < line.count {
                        line[state.column] = character
                    } else {
                        line.append(character)
                    }
                    state.column += 1
                    state.lines[state.lines.count - 1] = String(line)
                    // Past the last column, a real terminal would wrap onto a new line.
                    if ProgressLine.columns(String(line.prefix(state.column))) > state.width {
                        state.overflowed.append(String(line))
                    }
                }
            }
        }
    }
}
