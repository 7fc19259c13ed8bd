public import Foundation
import Synchronization

/// Starts child processes one at a time, for every test target in the test binary.
///
/// Foundation's `Process.run()` on Linux is not safe to call from several threads at once: parallel tests starting
/// processes together crashed inside it (a bad memcpy during the spawn). Every test that starts a process goes
/// through here.
public enum ProcessLaunch {
    private static let lock = Mutex(())

    /// Starts `process`, waiting for any other launch to finish first.
    ///
    /// - Parameter process: A configured process.
    /// - Throws: What `Process.run()` throws.
    public static func run(_ process: Process) throws {
        try lock.withLock { _ in try process.run() }
    }
}
