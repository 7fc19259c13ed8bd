import Dispatch
@_spi(FileSystem) import PostStore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Calls a closure soon after any process creates, writes, replaces or removes one of some files (or another file
/// of their folders, which costs a spurious read): Linux's inotify on the files' folders, read by a dispatch
/// source. There is none elsewhere, or where inotify refuses (its limits);
/// a ``ChangeWatcher`` then reads the store every interval instead.
///
/// The closure may come before the write it announces has committed (a SQLite writer writes its pages, then marks
/// the commit in memory shared with readers, which no file event reports): whoever reacts reads again a moment
/// later.
final class FileChangeMonitor: CommitNotifications {
    /// How long after an event the files are watched again: a write makes one event per system call (a sync,
    /// thousands a second, which cost it 8% when each was made and read), while whoever reacts reads in a burst
    /// after the first anyway. Each watch fires once (`IN_ONESHOT`) and is armed again after it, so the kernel makes
    /// no event in between; it is shorter than ``ChangeWatcher/burst``, so that a burst goes on while the files
    /// keep changing.
    static let holdOff = DispatchTimeInterval.milliseconds(20)

    // `any DispatchSourceRead` is not declared Sendable; a dispatch source's `cancel()` may be called from any
    // thread, and nothing else is called on it after `init`.
    private nonisolated(unsafe) let source: any DispatchSourceRead
    /// Whether ``stop()`` was called: the watches are not armed again after it.
    private let isStopped = LockedState(false)

    /// Starts watching, or returns `nil` where it cannot.
    ///
    /// - Parameters:
    ///   - files: The files watched (whether or not they exist yet): their folders are.
    ///   - onChange: Called on a dispatch queue after one or more events on the files, at most once per
    ///     ``holdOff``.
    init?(files: [String], onChange: @escaping @Sendable () -> Void) {
        #if os(Linux)
        let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else { return nil }
        let folders = Set(files.map(\.folderPathAndName.folder))
        /// Watches each folder for one event.
        @Sendable func arm() -> Bool {
            let changes = UInt32(IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM)
            let mask = changes | UInt32(IN_CREATE | IN_DELETE) | UInt32(IN_ONESHOT)
            return folders.allSatisfy { inotify_add_watch(descriptor, $0, mask) >= 0 }
        }
        guard arm() else {
            close(descriptor)
            return nil
        }
        let queue = DispatchQueue(label: "poststore.files")
        source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue)
        let isStopped = isStopped
        source.setEventHandler {
            // Any event is a notification, of a watched file or not: the one-shot watch is spent, and a watched file's
            // event that follows (a JSON store's rename after its temporary file) is not made until it is armed again.
            Self.readEvents(descriptor)
            onChange()
            queue.asyncAfter(deadline: .now() + Self.holdOff) {
                // The cancel handler, which closes the descriptor, runs on this queue too: never before this block.
                guard !isStopped.withLock({ $0 }) else { return }
                // A folder that can no longer be watched leaves the watcher's quiet reads to see its writes.
                _ = arm()
            }
        }
        source.setCancelHandler { close(descriptor) }
        source.resume()
        #else
        return nil
        #endif
    }

    /// Stops watching.
    func stop() {
        isStopped.withLock { $0 = true }
        source.cancel()
    }

    deinit {
        stop()
    }

    #if os(Linux)
    /// Reads and drops every pending event.
    private static func readEvents(_ descriptor: Int32) {
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while buffer.withUnsafeMutableBytes({ read(descriptor, $0.baseAddress, $0.count) }) > 0 {}
    }
    #endif
}
