package import NIOCore
import Synchronization

/// A task executor that runs its jobs on one NIO event loop, so that code run with it as the task's preference
/// (`withTaskExecutorPreference`, `Task(executorPreference:)`) executes on that loop, between its I/O events, rather
/// than on Swift's pool.
///
/// `poststore serve` handles a connection's requests this way over a store on a server: the store's statements are
/// then written and answered on the loop that handles the request, with no thread switch. The PostgreSQL engine runs
/// its calls into postgres-nio's copy writer this way, so that postgres-nio handles each within the event-loop turn
/// that looked at the connection. There is one executor a loop (``executor(for:)``): a preference for another
/// executor of the same loop would hop through the loop's queue, losing the turn.
package final class EventLoopTaskExecutor: TaskExecutor {
    /// The loop the jobs run on.
    package let eventLoop: any EventLoop

    private init(_ eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    /// The executors made so far, by loop (the loops of a group live as long as the group, most for the process).
    private static let executors = Mutex<[ObjectIdentifier: EventLoopTaskExecutor]>([:])

    /// The executor of a loop.
    package static func executor(for eventLoop: any EventLoop) -> EventLoopTaskExecutor {
        executors.withLock { executors in
            let key = ObjectIdentifier(eventLoop)
            if let executor = executors[key], executor.eventLoop === eventLoop { return executor }
            let executor = EventLoopTaskExecutor(eventLoop)
            executors[key] = executor
            return executor
        }
    }

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        eventLoop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
