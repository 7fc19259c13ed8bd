import Foundation

/// What Ctrl-C (SIGINT) and SIGTERM do: one line on standard error saying no store was left half-written, then the
/// signal's default action, so a shell or supervisor still sees the process ended by that signal (status 130 or
/// 143).
///
/// Nothing needs undoing first: a write is one SQLite transaction or one atomic file replacement, so a process that
/// stops at any instant leaves the store as it was before the write or as the write left it — the crash tests kill
/// it with SIGKILL to show that. The handler runs in signal context, so it only calls async-signal-safe functions
/// (`write`, `signal`, `raise`) on static text.
enum InterruptHandler {
    /// Installs the handler for SIGINT and SIGTERM. Call once, before any work starts.
    static func install() {
        signal(SIGINT) { signalNumber in
            stop(
                signalNumber,
                "poststore: stopped by SIGINT; no store was left half-written (an unfinished sync or copy is not applied).\n"
            )
        }
        signal(SIGTERM) { signalNumber in
            stop(
                signalNumber,
                "poststore: stopped by SIGTERM; no store was left half-written (an unfinished sync or copy is not applied).\n"
            )
        }
    }
}

/// Writes `line`, then ends the process by the signal with its default action. A global function, not a method: a
/// signal handler is a C function pointer and may not capture even a type.
private func stop(_ signalNumber: Int32, _ line: StaticString) {
    _ = write(STDERR_FILENO, line.utf8Start, line.utf8CodeUnitCount)
    signal(signalNumber, SIG_DFL)
    raise(signalNumber)
}
