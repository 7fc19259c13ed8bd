import Foundation
import Synchronization

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Runs one `URLSession` data task for a Swift task, and cancels it, when the Swift task is cancelled, from another
/// queue.
///
/// Why not `session.data(for:)`: on Linux its cancellation calls `URLSessionTask.cancel()` inside the Swift task's
/// cancellation, which waits on FoundationNetworking's queue while that queue may be waiting to hand this very task
/// its result: the two wait for each other and both threads stay blocked (seen as a hung test run on two cores).
/// Cancelling from a dispatch queue breaks the cycle; the task's completion handler still resumes the caller.
enum URLSessionDataTaskCancellation {
    /// The data and response of `request`, or the error the task ended with (`URLError.cancelled` once cancelled).
    static func data(for request: URLRequest, in session: URLSession) async throws -> (Data, URLResponse) {
        let started = StartedTask()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let task = session.dataTask(with: request) { data, response, error in
                    if let error {
                        continuation.resume(throwing: error)
                    } else if let data, let response {
                        continuation.resume(returning: (data, response))
                    } else {
                        continuation.resume(throwing: URLError(.badServerResponse))
                    }
                }
                started.set(task)
                task.resume()
            }
        } onCancel: {
            started.cancel()
        }
    }

    /// The data task, once made, and whether it was cancelled before that.
    private final class StartedTask: Sendable {
        private let state = Mutex<(task: URLSessionDataTask?, isCancelled: Bool)>((nil, false))

        func set(_ task: URLSessionDataTask) {
            let cancelled = state.withLock { state in
                state.task = task
                return state.isCancelled
            }
            if cancelled { Self.cancelLater(task) }
        }

        func cancel() {
            let task = state.withLock { state in
                state.isCancelled = true
                return state.task
            }
            if let task { Self.cancelLater(task) }
        }

        private static func cancelLater(_ task: URLSessionDataTask) {
            DispatchQueue.global().async { task.cancel() }
        }
    }
}
