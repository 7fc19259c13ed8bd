import Dispatch

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Calls a closure soon after any process creates, writes, replaces or removes one of some files: Linux's inotify on
/// the files' folders, read by a dispatch source. There is none elsewhere, or where inotify refuses (its limits);
/// a ``ChangeWatcher`` then reads the store every interval instead.
///
/// The closure may come before the write it announces has committed (a SQLite writer writes its pages, then marks
/// the commit in memory shared with readers, which no file event reports): whoever reacts reads again a moment
/// later.
final class FileChangeMonitor: CommitNews {
    /// How long the events after one are left unread: a write makes one per system call (a sync, thousands a
    /// second, which cost it 8% when each was read), while whoever reacts reads in a burst after the first
    /// anyway. Held-off events are read after it; it is shorter than ``ChangeWatcher/burst``, so that a burst
    /// goes on while the files keep changing.
    static let holdOff = DispatchTimeInterval.milliseconds(20)

    /// Whether the source is suspended for ``holdOff``, and whether it was stopped: a dispatch source must be
    /// resumed exactly as often as it was suspended, and before it is released.
    private struct Gate {
        var isSuspended = false
        var isStopped = false
    }

    // `any DispatchSourceRead` is not declared Sendable; a dispatch source may be suspended, resumed and cancelled
    // from any thread, and here each of those runs under `gate`'s lock, which keeps them paired.
    private nonisolated(unsafe) let source: any DispatchSourceRead
    private let gate = LockedState(Gate())

    /// Starts watching, or returns `nil` where it cannot.
    ///
    /// - Parameters:
    ///   - files: The files watched (whether or not they exist yet).
    ///   - onChange: Called on a dispatch queue after one or more events on the files, at most once per
    ///     ``holdOff``.
    init?(files: [String], onChange: @escaping @Sendable () -> Void) {
        #if os(Linux)
        let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else { return nil }
        let mask = UInt32(IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE)
        var names: [Int32: Set<String>] = [:]
        for file in files {
            let (folder, name) = file.folderPathAndName
            let watch = inotify_add_watch(descriptor, folder, mask)
            guard watch >= 0 else {
                close(descriptor)
                return nil
            }
            names[watch, default: []].insert(name)
        }
        let watched = names
        let queue = DispatchQueue(label: "poststore.files")
        // Captured by the handlers below, which call it under `gate`'s lock (see the stored property's note).
        nonisolated(unsafe) let source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue)
        let gate = gate
        source.setEventHandler {
            guard Self.readEvents(descriptor, concern: watched) else { return }
            onChange()
            let isSuspended = gate.withLock { gate in
                guard !gate.isStopped else { return false }
                gate.isSuspended = true
                source.suspend()
                return true
            }
            guard isSuspended else { return }
            queue.asyncAfter(deadline: .now() + Self.holdOff) {
                gate.withLock { gate in
                    guard gate.isSuspended, !gate.isStopped else { return }
                    gate.isSuspended = false
                    source.resume()
                }
            }
        }
        source.setCancelHandler { close(descriptor) }
        source.resume()
        self.source = source
        #else
        return nil
        #endif
    }

    /// Stops watching.
    func stop() {
        gate.withLock { gate in
            guard !gate.isStopped else { return }
            gate.isStopped = true
            source.cancel()
            if gate.isSuspended {
                gate.isSuspended = false
                source.resume()
            }
        }
    }

    deinit {
        stop()
    }

    #if os(Linux)
    /// Reads every pending event; whether one concerns a watched file (or events were lost).
    private static func readEvents(_ descriptor: Int32, concern names: [Int32: Set<String>]) -> Bool {
        var concerned = false
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { return concerned }
            buffer.withUnsafeBytes { bytes in
                var offset = 0
                // Each event: wd (Int32), mask, cookie, len (UInt32), then len bytes of NUL-padded name.
                while offset + 16 <= count {
                    let watch = bytes.loadUnaligned(fromByteOffset: offset, as: Int32.self)
                    let mask = bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
                    let length = Int(bytes.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                    let nameBytes = bytes[(offset + 16)..<min(count, offset + 16 + length)].prefix { $0 != 0 }
                    if mask & UInt32(IN_Q_OVERFLOW) != 0
                        || names[watch]?.contains(String(decoding: nameBytes, as: UTF8.self)) == true
                    {
                        concerned = true
                    }
                    offset += 16 + length
                }
            }
        }
    }
    #endif
}
