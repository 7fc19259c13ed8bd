import Foundation
import PostStore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The delegate of ``URLSessionHTTPTransport``'s session: runs one data task per Swift task, collecting its body up
/// to a limit, following redirects within a limit and never from `https` to another scheme.
///
/// Why a delegate: a completion handler gets the body only once it is whole (a hostile server could send
/// gigabytes first) and redirects are followed without asking. Why tasks are cancelled from a dispatch queue and not
/// with `session.data(for:)`: on Linux its cancellation calls `URLSessionTask.cancel()` inside the Swift task's
/// cancellation, which waits on FoundationNetworking's queue while that queue may be waiting to hand this very task
/// its result: the two wait for each other and both threads stay blocked (seen as a hung test run on two cores).
final class URLSessionTaskRunner: NSObject, URLSessionDataDelegate, Sendable {
    /// A task under way.
    private struct Running {
        let continuation: CheckedContinuation<(Data, URLResponse), any Error>
        let maximumBodyBytes: Int
        /// Told of each piece of the body as it arrives.
        let receiving: @Sendable (_ received: Int, _ expected: Int?) -> Void
        /// The body's announced length, once the head arrived with one.
        var expectedBytes: Int?
        var body = Data()
        var redirects = 0
        /// Why the task was stopped, when this runner stopped it.
        var refusal: HTTPTransportError?
    }

    /// The most redirects one request follows.
    let maximumRedirects: Int

    /// Tasks under way, by task identifier. Delegate calls come on the session's serial queue; the lock also
    /// covers the call that adds a task. (A `LockedState`, not a `Mutex`: the thread sanitizer sees its lock.)
    private let running = LockedState<[Int: Running]>([:])

    /// Creates a runner.
    ///
    /// - Parameter maximumRedirects: The most redirects one request follows.
    init(maximumRedirects: Int) {
        self.maximumRedirects = maximumRedirects
    }

    /// The body and response of `request`, or the error the task ended with: ``HTTPTransportError`` for a refused
    /// redirect or a body over `maximumBodyBytes`, `URLError.cancelled` once the Swift task is cancelled.
    ///
    /// `receiving` is told, after each piece of the body, the bytes so far and the announced length.
    func data(
        for request: URLRequest,
        maximumBodyBytes: Int,
        in session: URLSession,
        receiving: @escaping @Sendable (_ received: Int, _ expected: Int?) -> Void = { _, _ in }
    ) async throws -> (Data, URLResponse) {
        let started = StartedTask()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let task = session.dataTask(with: request)
                running.withLock { running in
                    running[task.taskIdentifier] = Running(
                        continuation: continuation,
                        maximumBodyBytes: maximumBodyBytes,
                        receiving: receiving
                    )
                }
                started.set(task)
                task.resume()
            }
        } onCancel: {
            started.cancel()
        }
    }

    // MARK: - URLSessionDataDelegate

    func urlSession(
        _ session: URLSession,
        dataTask: URLSessionDataTask,
        didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let length = response.expectedContentLength
        let refused = running.withLock { running in
            // A compressed body's announced length is not that of the bytes URLSession hands over, decompressed.
            let encoding = (response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Encoding") ?? "identity"
            if length >= 0, encoding.lowercased() == "identity" {
                running[dataTask.taskIdentifier]?.expectedBytes = Int(length)
            }
            guard let limit = running[dataTask.taskIdentifier]?.maximumBodyBytes, length > limit else { return false }
            running[dataTask.taskIdentifier]?.refusal = Self.tooLarge(response.url, limit)
            return true
        }
        completionHandler(refused ? .cancel : .allow)
        // FoundationNetworking does not always end the task on `.cancel`.
        if refused { StartedTask.cancelLater(dataTask) }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        var report: (() -> Void)?
        let refused = running.withLock { running in
            let id = dataTask.taskIdentifier
            guard let limit = running[id]?.maximumBodyBytes, running[id]?.refusal == nil else { return false }
            // Appended in place (no copy of the task's state is held meanwhile): a copy of the body per piece would
            // make a large answer quadratic.
            running[id]?.body.append(data)
            let received = running[id]?.body.count ?? 0
            guard received > limit else {
                if let receiving = running[id]?.receiving {
                    let expected = running[id]?.expectedBytes
                    report = { receiving(received, expected) }
                }
                return false
            }
            running[id]?.refusal = Self.tooLarge(dataTask.originalRequest?.url, limit)
            running[id]?.body = Data()
            return true
        }
        // Outside the lock: the callback may take its time.
        report?()
        if refused { StartedTask.cancelLater(dataTask) }
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        let refusal = running.withLock { running -> HTTPTransportError? in
            guard var current = running[task.taskIdentifier] else { return nil }
            current.redirects += 1
            current.refusal = Self.refusal(
                ofRedirectFrom: response.url ?? task.currentRequest?.url,
                to: request.url,
                redirects: current.redirects,
                maximumRedirects: maximumRedirects
            )
            running[task.taskIdentifier] = current
            return current.refusal
        }
        // Declining the redirect ends the task with the redirect's own answer; `didCompleteWithError` then reports
        // the refusal instead.
        completionHandler(refusal == nil ? request : nil)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let finished = running.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        if let refusal = finished.refusal {
            finished.continuation.resume(throwing: refusal)
        } else if let error {
            finished.continuation.resume(throwing: error)
        } else if let response = task.response {
            finished.continuation.resume(returning: (finished.body, response))
        } else {
            finished.continuation.resume(throwing: URLError(.badServerResponse))
        }
    }

    /// Why a redirect must not be followed, or `nil` when it may: the `redirects`-th of a request may not go from
    /// `https` to another scheme, nor exceed `maximumRedirects`.
    static func refusal(
        ofRedirectFrom from: URL?,
        to destination: URL?,
        redirects: Int,
        maximumRedirects: Int
    ) -> HTTPTransportError? {
        let origin = from?.absoluteString ?? "The source"
        let target = destination?.absoluteString ?? "an unknown address"
        if from?.scheme?.lowercased() == "https", destination?.scheme?.lowercased() != "https" {
            return HTTPTransportError(
                .redirectRefused,
                "\(origin) redirected to \(target): a redirect from https to an insecure address is refused."
            )
        }
        guard redirects <= maximumRedirects else {
            return HTTPTransportError(
                .redirectRefused,
                "\(origin) redirected once more, to \(target), after \(maximumRedirects) redirects: the limit; stopped."
            )
        }
        return nil
    }

    private static func tooLarge(_ url: URL?, _ limit: Int) -> HTTPTransportError {
        HTTPTransportError(
            .responseTooLarge,
            "The answer from \(url?.absoluteString ?? "the source") is longer than \(limit) bytes."
        )
    }

    /// The data task, once made, and whether it was cancelled before that.
    private final class StartedTask: Sendable {
        private let state = LockedState<(task: URLSessionDataTask?, isCancelled: Bool)>((nil, false))

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

        static func cancelLater(_ task: URLSessionTask) {
            DispatchQueue.global().async { task.cancel() }
        }
    }
}
