import Dispatch
import Foundation
import PostStore

/// How a command that runs until stopped (`sync --follow`) ends: a SIGINT, SIGTERM or SIGHUP cancels its work,
/// which finishes the write under way (a store commits or rolls back a write whole; a new store being built is
/// discarded) and returns, with the signal, for the command to say how it ended (`sync --follow` exits 0 once its
/// first sync is written). A second signal of the same kind ends the process at once by the signal's default
/// action.
///
/// While it runs, the signals are taken from ``InterruptHandler`` (whose handler stops the process at once) and
/// delivered to dispatch sources instead, outside signal context, where a task can be cancelled.
enum SignalCancellation {
    /// Runs `work` until it returns or a signal cancels it.
    ///
    /// - Returns: The signal that cancelled the work, if one did.
    /// - Throws: What `work` throws, except the cancellation a signal caused.
    static func run(_ work: @escaping @Sendable () async throws -> Void) async throws -> Int32? {
        let task = Task { try await work() }
        let stoppedBy = LockedState<Int32?>(nil)
        let signals = [SIGINT, SIGTERM, SIGHUP]
        let sources = signals.map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            let received = LockedState(false)
            source.setEventHandler {
                let isSecond = received.withLock { received in
                    defer { received = true }
                    return received
                }
                guard isSecond else {
                    stoppedBy.withLock { $0 = $0 ?? number }
                    return task.cancel()
                }
                signal(number, SIG_DFL)
                raise(number)
            }
            source.resume()
            return source
        }
        defer {
            for source in sources { source.cancel() }
            InterruptHandler.install()
        }
        do {
            try await task.value
        } catch is CancellationError where task.isCancelled {}
        return stoppedBy.withLock { $0 }
    }
}
