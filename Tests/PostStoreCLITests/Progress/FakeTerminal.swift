import Synchronization

@testable import PostStoreCLI

/// A terminal for the progress display's tests: a width that a test can change (a resize), and a screen that
/// interprets what the display writes — printable text, carriage return, line feed, "erase to the end of the line",
/// "erase to the end of the screen" and "cursor up" — as a terminal would, refusing anything else, so a test can
/// read what a user would see.
final class FakeTerminal: TerminalOutput {
    private struct State {
        var width: Int
        var lines: [String] = [""]
        var row = 0
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

    /// Changes the width, as a resized window does. A narrower window rewraps each line that no longer fits onto
    /// several rows, the cursor moving with its text, as tmux does (`resize-window` measured: a 100-column line
    /// narrowed to 60 columns takes two rows, the cursor at column 40 of the second).
    func resize(to width: Int) {
        state.withLock { state in
            var lines: [String] = []
            var cursor = (row: 0, column: 0)
            for (index, line) in state.lines.enumerated() {
                let pieces = Self.rewrapped(line, width: width)
                if index == state.row {
                    let piece = min(state.column / width, pieces.count - 1)
                    cursor = (lines.count + piece, state.column - piece * width)
                }
                lines += pieces
            }
            state.width = width
            state.lines = lines
            (state.row, state.column) = cursor
        }
    }

    private static func rewrapped(_ line: String, width: Int) -> [String] {
        let characters = Array(line)
        guard characters.count > width else { return [line] }
        return stride(from: 0, to: characters.count, by: width).map {
            String(characters[$0..<min($0 + width, characters.count)])
        }
    }

    /// Every write, in order.
    var writes: [String] { state.withLock { $0.writes } }

    /// The screen's lines, from the top to the last one written (the cursor's line, in the display's use).
    var lines: [String] { state.withLock { $0.lines } }

    /// The lines that grew wider than the terminal.
    var overflowed: [String] { state.withLock { $0.overflowed } }

    func write(_ text: String) {
        state.withLock { state in
            state.writes.append(text)
            var rest = Substring(text)
            while let character = rest.first {
                if let (sequence, count) = Self.controlSequence(rest) {
                    rest = rest.dropFirst(sequence.count)
                    switch sequence.last {
                    case "K":
                        state.lines[state.row] = String(state.lines[state.row].prefix(state.column))
                    case "J":
                        state.lines[state.row] = String(state.lines[state.row].prefix(state.column))
                        state.lines.removeSubrange((state.row + 1)...)
                    default:
                        state.row = max(0, state.row - count)
                    }
                    continue
                }
                rest = rest.dropFirst()
                switch character {
                case "\r":
                    state.column = 0
                case "\n":
                    state.row += 1
                    if state.row == state.lines.count { state.lines.append("") }
                    state.column = 0
                default:
                    precondition(character.asciiValue.map { $0 >= 0x20 && $0 < 0x7F } ?? true, "a control: \(text)")
                    var line = Array(state.lines[state.row])
                    if state.column < line.count {
                        line[state.column] = character
                    } else {
                        line.append(character)
                    }
                    state.column += 1
                    state.lines[state.row] = String(line)
                    // Past the last column, a real terminal would wrap onto a new line.
                    if ProgressLine.columns(String(line.prefix(state.column))) > state.width {
                        state.overflowed.append(String(line))
                    }
                }
            }
        }
    }

    /// The control sequence `text` starts with, if any of the three the display may send: ESC [ K, ESC [ J or
    /// ESC [ n A (with its count).
    private static func controlSequence(_ text: Substring) -> (Substring, Int)? {
        guard text.hasPrefix("\u{1B}[") else { return nil }
        let digits = text.dropFirst(2).prefix { $0.isNumber }
        let end = text.dropFirst(2 + digits.count).first
        switch end {
        case "K" where digits.isEmpty, "J" where digits.isEmpty: return (text.prefix(3), 0)
        case "A": return (text.prefix(3 + digits.count), Int(digits) ?? 1)
        default: preconditionFailure("an unexpected control sequence: \(text.prefix(8))")
        }
    }
}
