import Foundation

/// Standard output for data, standard error for messages.
enum Output {
    /// Writes a line to standard output.
    static func line(_ text: String) {
        data(Data((text + "\n").utf8))
    }

    /// Writes bytes to standard output. A reader that stops early (`poststore query | head -1`) ends the program
    /// with SIGPIPE, as it ends any Unix tool; output that cannot be written (a full disk, a closed descriptor) ends
    /// it with one line and status 74 (`EX_IOERR`).
    static func data(_ bytes: Data) {
        do {
            try FileHandle.standardOutput.write(contentsOf: bytes)
        } catch {
            let reason = (error as NSError).userInfo[NSUnderlyingErrorKey].map { "\($0)" } ?? "\(error)"
            let code = ((error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError)?.code ?? 0
            let described = code > 0 ? String(cString: strerror(Int32(code))).lowercased() : reason
            Self.error("poststore: cannot write the output: \(described).")
            exit(74)
        }
    }

    /// Writes a line to standard error.
    static func error(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    /// Whether standard error is a terminal (a progress display belongs there only then).
    static var standardErrorIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }

    /// The terminal's width for standard output: `$COLUMNS`, else the terminal's, else 100.
    static var width: Int {
        if let columns = ProcessInfo.processInfo.environment["COLUMNS"].flatMap(Int.init), columns > 0 {
            return columns
        }
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return 100
    }
}
