import Foundation

/// Runs `body` on a thread of its own and waits for it without holding one of the concurrency pool's threads.
///
/// Every test in the process shares that pool, one thread per core (two here). Work that blocks (waiting for a
/// child process) or computes for long (building 150,000 posts, several times slower under a sanitizer) would hold
/// a pool thread all that time, and the tests that wait for real time (lock waits, HTTP timeouts) would be late.
/// For example:
///
/// ```swift
/// try await onOwnThread { try sandbox.write(SamplePosts.make(count: 150_000), to: "large.json") }
/// ```
///
/// - Parameter body: The work; it runs on a new `Thread`, so it must not use Swift Testing's `#expect` (it has
///   no test to report to there): return what to check instead.
/// - Returns: What `body` returns.
/// - Throws: What `body` throws.
public func onOwnThread<Value: Sendable>(_ body: @escaping @Sendable () throws -> Value) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try body() }) }.start()
    }
}
