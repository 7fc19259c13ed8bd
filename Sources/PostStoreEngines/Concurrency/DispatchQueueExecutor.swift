import Dispatch

/// A serial executor on a dispatch queue of its own: where an engine's actor runs blocking work (SQLite calls, file
/// reads and writes, `fsync`, lock waits) so that it never holds a thread of Swift's cooperative pool.
///
/// The cooperative pool has one thread a core; a call that blocks on one (a SQLite statement, a flush) stops every
/// other task the pool would have run there. A dispatch queue runs on dispatch's own threads, which it adds when one
/// blocks, so callers suspend while the work runs and the pool stays free. This is GRDB's `DispatchQueueActor`: an
/// actor whose `unownedExecutor` is one of these runs all its isolated code on the queue.
package final class DispatchQueueExecutor: SerialExecutor {
    private let queue: DispatchQueue

    /// Creates an executor on a new serial queue.
    ///
    /// - Parameter label: The queue's label, which debuggers and crash reports show.
    package init(label: String) {
        queue = DispatchQueue(label: label)
    }

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedSerialExecutor()) }
    }

    package func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    package func checkIsolated() {
        dispatchPrecondition(condition: .onQueue(queue))
    }
}
