import Foundation

/// Where a progress display draws: a terminal's width and a way to write to it. Tests use a fake terminal.
protocol TerminalOutput: Sendable {
    /// The terminal's width in columns now (a resized terminal answers its new width).
    var width: Int { get }
    /// Writes text, control sequences included, in one piece.
    func write(_ text: String)
}

/// Standard error, a terminal or not.
struct StandardErrorTerminal: TerminalOutput {
    /// The width the terminal reports, else `$COLUMNS`, else 80.
    var width: Int {
        var size = winsize()
        if ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        if let columns = ProcessInfo.processInfo.environment["COLUMNS"].flatMap(Int.init), columns > 0 {
            return columns
        }
        return 80
    }

    /// Writes the text with one `write`, so that nothing else lands in the middle of a line; nothing once an
    /// interrupt is stopping the process, so that its message stays the last line.
    func write(_ text: String) {
        let bytes = Array(text.utf8)
        InterruptHandler.writingProgress {
            Self.write(bytes)
        }
    }

    private static func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Foundation.write(STDERR_FILENO, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0, errno == EINTR { continue }
                guard written > 0 else { return }
                offset += written
            }
        }
    }
}
