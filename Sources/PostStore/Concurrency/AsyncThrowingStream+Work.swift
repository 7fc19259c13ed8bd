extension AsyncThrowingStream where Failure == any Error, Element: Sendable {
    /// A stream of what `work`, run in a task of its own, yields: it finishes when `work` returns or its task is
    /// cancelled, and with `work`'s error otherwise; ending the iteration cancels the task.
    ///
    /// - Parameter work: Produces the elements, handing each to the function it is given.
    package static func yielding(
        _ work: @escaping @Sendable (_ yield: (Element) -> Void) async throws -> Void
    ) -> Self {
        AsyncThrowingStream { continuation in
            let working = Task {
                do {
                    try await work { continuation.yield($0) }
                    continuation.finish()
                } catch is CancellationError {
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in working.cancel() }
        }
    }
}
