import PostgresNIO
import Synchronization

/// A task executor that runs its jobs on one NIO event loop, so that code run with it as the task's preference
/// (`withTaskExecutorPreference`) executes on that loop, between its I/O events, rather than on Swift's pool.
///
/// ``PostgresCopyIn`` runs its calls into postgres-nio's copy writer this way: postgres-nio then handles each of
/// them within the event-loop turn that looked at the connection, with no I/O in between. There is one executor a
/// loop (``executor(for:)``): a preference for another executor of the same loop would hop through the loop's queue,
/// losing the turn.
final class EventLoopTaskExecutor: TaskExecutor {
    /// The loop the jobs run on.
    let eventLoop: any EventLoop

    private init(_ eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    /// The executors made so far, by loop (the loops of a group live as long as the group, most for the process).
    private static let executors = Mutex<[ObjectIdentifier: EventLoopTaskExecutor]>([:])

    /// The executor of a loop.
    static func executor(for eventLoop: any EventLoop) -> EventLoopTaskExecutor {
        executors.withLock { executors in
            let key = ObjectIdentifier(eventLoop)
            if let executor = executors[key], executor.eventLoop === eventLoop { return executor }
            let executor = EventLoopTaskExecutor(eventLoop)
            executors[key] = executor
            return executor
        }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        eventLoop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
