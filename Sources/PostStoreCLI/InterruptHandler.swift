import Foundation
import Synchronization

/// What Ctrl-C (SIGINT), SIGTERM and SIGHUP (the terminal closed) do: before a write has committed, one line on
/// standard error saying no store was left half-written, then the signal's default action, so a shell or supervisor
/// still sees the process ended by that signal (status 130, 143 or 129); once it has committed, nothing: the command
/// finishes, prints its report and exits 0, as the store holds what the report says. Which of the two a signal gets
/// is the process's ``gate``'s to say (see ``CommitGate``); the writes tell it of their commits
/// (``InterruptSafeWrite``).
///
/// Nothing in a store needs undoing first: a write is one SQLite transaction or one atomic file replacement, and a
/// new store is staged and published only when complete (the library's `StoreWrite`), so a process that stops
/// at any instant leaves the store as it was before the write or as the write left it — the crash tests kill it
/// with SIGKILL to show that. The handler only deletes the staging folder of a new store being built, so that an
/// interrupted first sync leaves nothing behind. It runs in signal context, so it only calls async-signal-safe
/// functions (`write`, `unlink`, `rmdir`, `signal`, `raise`) on text prepared beforehand.
///
/// After the commit a signal is let through once: a second one of the same kind ends the process by its default
/// action, so a command stuck after its write can still be stopped.
enum InterruptHandler {
    /// The process's gate: what the handler does with a signal as the command's write moves to its commit.
    static let gate = CommitGate(stop: { stop($0) })

    /// Stops the process as the handler does a signal that comes before any commit: the line on standard error,
    /// then the signal's default action. For work that took the signal itself (``SignalCancellation``) and ended
    /// with nothing written.
    static func stopUncommitted(by signalNumber: Int32) {
        // The caller's thread may be one of the concurrency pool's, which block signals: the raised one would wait.
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, signalNumber)
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)
        stop(signalNumber)
    }

    /// Installs the handler for SIGINT, SIGTERM and SIGHUP. Call once, before any work starts.
    static func install() {
        // Made now: a global is made on its first use, which must not be in the handler (it may take a lock).
        _ = gate
        standardErrorIsTerminal.store(isatty(STDERR_FILENO) == 1, ordering: .sequentiallyConsistent)
        for signalNumber in [SIGINT, SIGTERM, SIGHUP] {
            signal(signalNumber) { signalNumber in handle(signalNumber) }
        }
    }

    /// Makes the handler delete a staging folder before the process ends: `files`, then `lockFile`, then `folder`.
    /// Replaces what an earlier call asked for.
    ///
    /// If the folder is not empty by then (a JSON store's temporary file, whose name is not known in advance), the
    /// handler puts the lock file back, so that the folder stays recognizable as abandoned and the next sync of the
    /// store deletes it.
    ///
    /// - Parameters:
    ///   - files: Files this process is writing and nobody else knows of (a staged store and its sidecars).
    ///   - lockFile: The staging folder's lock file.
    ///   - folder: The staging folder.
    static func removeOnInterrupt(files: [String], lockFile: String, folder: String) {
        // A NULL-terminated array of C strings, the lock file and the folder last. Never freed: a handler may be
        // reading an older one on another thread, and a process makes one or two of them.
        let all = files + [lockFile, folder]
        let paths = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: all.count + 1)
        for (index, path) in all.enumerated() { paths[index] = strdup(path) }
        paths[all.count] = nil
        pathsToRemove.store(Int(bitPattern: paths), ordering: .sequentiallyConsistent)
    }

    /// Tells the handler whether a progress display's live line is on screen: it erases one before its own line.
    @Sendable static func progressLine(shown: Bool) {
        progressLineIsShown.store(shown, ordering: .sequentiallyConsistent)
    }

    /// Writes a progress display's text unless the handler is stopping the process: then nothing is written, so no
    /// live line lands after the handler's message in the moment before the process ends.
    ///
    /// - Parameter write: Writes the text; not called once the handler has begun to stop the process.
    static func writingProgress(_ write: () -> Void) {
        guard
            progressWrites.compareExchange(
                expected: ProgressWrites.idle,
                desired: ProgressWrites.writing,
                ordering: .sequentiallyConsistent
            ).exchanged
        else { return }
        write()
        progressWrites.store(ProgressWrites.idle, ordering: .sequentiallyConsistent)
    }

    /// Makes the handler delete nothing again.
    static func removeNothingOnInterrupt() {
        pathsToRemove.store(0, ordering: .sequentiallyConsistent)
    }
}

/// What the handler deletes: 0, or the address of the array
/// ``InterruptHandler/removeOnInterrupt(files:lockFile:folder:)`` made. An atomic integer, so the handler (which may
/// run on any thread) reads a whole address without a lock.
private let pathsToRemove = Atomic<Int>(0)

/// Whether a progress line without its line break is on standard error (see ``InterruptHandler/progressLine(shown:)``).
private let progressLineIsShown = Atomic<Bool>(false)

/// Whether a progress display is writing (``ProgressWrites``), so that the handler's message comes after a line being
/// written and no line comes after the message.
private let progressWrites = Atomic<Int>(ProgressWrites.idle)

/// The values of ``progressWrites``.
private enum ProgressWrites {
    static let idle = 0
    static let writing = 1
    /// The handler is stopping the process: progress writes no more.
    static let stopped = 2
}

/// Whether standard error is a terminal, found when the handler is installed (`isatty` is not async-signal-safe).
private let standardErrorIsTerminal = Atomic<Bool>(false)

/// The handler: tells the process's gate of the signal, then stops the process, leaves the signal for
/// ``CommitGate/committing(_:)``, or (after the commit) lets the command finish and makes the next such signal end
/// the process at once. A global function, not a method: a signal handler is a C function pointer and may not
/// capture even a type.
private func handle(_ signalNumber: Int32) {
    // A handler must leave `errno` as it found it (the thread sanitizer checks): code runs after it returns, and
    // where a signal is held back until the handler returns, even after it stops the process.
    let savedErrno = errno
    defer { errno = savedErrno }
    switch InterruptHandler.gate.receive(signalNumber) {
    case .letThrough: signal(signalNumber, SIG_DFL)
    case .holdBack: break
    case .stop: stop(signalNumber)
    }
}

/// Deletes what ``pathsToRemove`` names, writes the signal's line, then ends the process by the signal with its
/// default action. Async-signal-safe: the handler calls it.
private func stop(_ signalNumber: Int32) {
    // Wait for a progress line being written to finish (a millisecond at a time, 100 ms at most: the signal may
    // have come on the writing thread itself), then let no other start.
    var waits = 0
    while !progressWrites.compareExchange(
        expected: ProgressWrites.idle,
        desired: ProgressWrites.stopped,
        ordering: .sequentiallyConsistent
    ).exchanged, waits < 100 {
        var pause = timespec(tv_sec: 0, tv_nsec: 1_000_000)
        nanosleep(&pause, nil)
        waits += 1
    }
    progressWrites.store(ProgressWrites.stopped, ordering: .sequentiallyConsistent)
    if let paths = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>(
        bitPattern: pathsToRemove.load(ordering: .sequentiallyConsistent)
    ) {
        var count = 0
        while paths[count] != nil { count += 1 }
        for index in 0..<(count - 1) { unlink(paths[index]!) }
        if count >= 2, rmdir(paths[count - 1]!) != 0 {
            close(open(paths[count - 2]!, O_WRONLY | O_CREAT, 0o644))
        }
    }
    if progressLineIsShown.load(ordering: .sequentiallyConsistent)
        || standardErrorIsTerminal.load(ordering: .sequentiallyConsistent)
    {
        // Back to the line's start and erase it (ECMA-48 EL 0), so the message replaces the progress line, or the
        // "^C" the terminal echoed.
        let erase: StaticString = "\r\u{1B}[K"
        _ = write(STDERR_FILENO, erase.utf8Start, erase.utf8CodeUnitCount)
    }
    let line: StaticString =
        switch signalNumber {
        case SIGINT: "poststore: stopped by SIGINT; no store was left half-written (unfinished work is not applied).\n"
        case SIGHUP: "poststore: stopped by SIGHUP; no store was left half-written (unfinished work is not applied).\n"
        default: "poststore: stopped by SIGTERM; no store was left half-written (unfinished work is not applied).\n"
        }
    _ = write(STDERR_FILENO, line.utf8Start, line.utf8CodeUnitCount)
    signal(signalNumber, SIG_DFL)
    raise(signalNumber)
}
