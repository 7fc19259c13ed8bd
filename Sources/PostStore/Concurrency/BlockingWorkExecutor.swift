import Dispatch

/// A task executor on dispatch's global queue, for a task's blocking work (reading a file) that has no engine's
/// executor to run on: the task moves there for the work, which then holds a dispatch thread rather than one of
/// Swift's cooperative pool, and stays the same task (its name, its cancellation, its task-local values).
final class BlockingWorkExecutor: TaskExecutor {
    /// The one executor: dispatch's global queue adds threads as work blocks them.
    static let shared = BlockingWorkExecutor()

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        DispatchQueue.global().async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
