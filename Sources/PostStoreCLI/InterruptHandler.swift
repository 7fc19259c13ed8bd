import Foundation
import Synchronization

/// What Ctrl-C (SIGINT), SIGTERM and SIGHUP (the terminal closed) do: one line on standard error saying no store was
/// left half-written, then the signal's default action, so a shell or supervisor still sees the process ended by that
/// signal (status 130, 143 or 129).
///
/// Nothing in a store needs undoing first: a write is one SQLite transaction or one atomic file replacement, and a
/// new store is built off to the side and published only when complete (`NewStoreWrite`), so a process that stops
/// at any instant leaves the store as it was before the write or as the write left it — the crash tests kill it
/// with SIGKILL to show that. The handler only deletes the staging folder of a new store being built, so that an
/// interrupted first sync leaves nothing behind. It runs in signal context, so it only calls async-signal-safe
/// functions (`write`, `unlink`, `rmdir`, `signal`, `raise`) on text prepared beforehand.
enum InterruptHandler {
    /// Installs the handler for SIGINT, SIGTERM and SIGHUP. Call once, before any work starts.
    static func install() {
        standardErrorIsTerminal.store(isatty(STDERR_FILENO) == 1, ordering: .sequentiallyConsistent)
        signal(SIGINT) { signalNumber in
            stop(
                signalNumber,
                "poststore: stopped by SIGINT; no store was left half-written (unfinished work is not applied).\n"
            )
        }
        signal(SIGTERM) { signalNumber in
            stop(
                signalNumber,
                "poststore: stopped by SIGTERM; no store was left half-written (unfinished work is not applied).\n"
            )
        }
        signal(SIGHUP) { signalNumber in
            stop(
                signalNumber,
                "poststore: stopped by SIGHUP; no store was left half-written (unfinished work is not applied).\n"
            )
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

/// Whether standard error is a terminal, found when the handler is installed (`isatty` is not async-signal-safe).
private let standardErrorIsTerminal = Atomic<Bool>(false)

/// Deletes what ``pathsToRemove`` names, writes `line`, then ends the process by the signal with its default action.
/// A global function, not a method: a signal handler is a C function pointer and may not capture even a type.
private func stop(_ signalNumber: Int32, _ line: StaticString) {
    // A handler must leave `errno` as it found it (the thread sanitizer checks): the process ends by the signal
    // below, but where a signal is held back until the handler returns, code runs after it.
    let savedErrno = errno
    defer { errno = savedErrno }
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
    _ = write(STDERR_FILENO, line.utf8Start, line.utf8CodeUnitCount)
    signal(signalNumber, SIG_DFL)
    raise(signalNumber)
}
