import Foundation
import Synchronization

/// What Ctrl-C (SIGINT) and SIGTERM do: one line on standard error saying no store was left half-written, then the
/// signal's default action, so a shell or supervisor still sees the process ended by that signal (status 130 or
/// 143).
///
/// Nothing in a store needs undoing first: a write is one SQLite transaction or one atomic file replacement, and a
/// new store is built off to the side and published only when complete (`NewStoreWrite`), so a process that stops
/// at any instant leaves the store as it was before the write or as the write left it — the crash tests kill it
/// with SIGKILL to show that. The handler only deletes the staging folder of a new store being built, so that an
/// interrupted first sync leaves nothing behind. It runs in signal context, so it only calls async-signal-safe
/// functions (`write`, `unlink`, `rmdir`, `signal`, `raise`) on text prepared beforehand.
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

    /// Makes the handler delete `files`, then the folder `folder` (if it is empty by then), before the process ends.
    /// Replaces what an earlier call asked for.
    ///
    /// - Parameters:
    ///   - files: Files this process is writing and nobody else knows of (a staged store and its sidecars).
    ///   - folder: Their folder.
    static func removeOnInterrupt(files: [String], folder: String) {
        // A NULL-terminated array of C strings, the folder last. Never freed: a handler may be reading an older one
        // on another thread, and a process makes one or two of them.
        let paths = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: files.count + 2)
        for (index, path) in (files + [folder]).enumerated() { paths[index] = strdup(path) }
        paths[files.count + 1] = nil
        pathsToRemove.store(Int(bitPattern: paths), ordering: .sequentiallyConsistent)
    }

    /// Makes the handler delete nothing again.
    static func removeNothingOnInterrupt() {
        pathsToRemove.store(0, ordering: .sequentiallyConsistent)
    }
}

/// What the handler deletes: 0, or the address of the array ``InterruptHandler/removeOnInterrupt(files:folder:)``
/// made. An atomic integer, so the handler (which may run on any thread) reads a whole address without a lock.
private let pathsToRemove = Atomic<Int>(0)

/// Deletes what ``pathsToRemove`` names, writes `line`, then ends the process by the signal with its default action.
/// A global function, not a method: a signal handler is a C function pointer and may not capture even a type.
private func stop(_ signalNumber: Int32, _ line: StaticString) {
    if let paths = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>(
        bitPattern: pathsToRemove.load(ordering: .sequentiallyConsistent)
    ) {
        var index = 0
        while let path = paths[index] {
            if paths[index + 1] == nil { rmdir(path) } else { unlink(path) }
            index += 1
        }
    }
    _ = write(STDERR_FILENO, line.utf8Start, line.utf8CodeUnitCount)
    signal(signalNumber, SIG_DFL)
    raise(signalNumber)
}
