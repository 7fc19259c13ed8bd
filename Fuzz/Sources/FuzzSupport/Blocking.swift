import Dispatch
import Synchronization

/// Runs async work from libFuzzer's synchronous callback and waits for its result.
///
/// The task starts at once on the calling thread (`Task.immediate`), so work that never suspends — a file data
/// service over an in-memory file — runs inline without a thread hop; work that does suspend is waited for.
///
/// - Parameter operation: The work.
/// - Returns: Its result.
public func runBlocking<Result: Sendable>(_ operation: @escaping @Sendable () async -> Result) -> Result {
    let done = DispatchSemaphore(value: 0)
    let box = ResultBox<Result>()
    Task.immediate {
        let result = await operation()
        box.value.withLock { $0 = result }
        done.signal()
    }
    done.wait()
    return box.value.withLock { $0! }
}

/// Where a task leaves its result for the thread waiting on it.
private final class ResultBox<Value: Sendable>: Sendable {
    let value = Mutex<Value?>(nil)
}
