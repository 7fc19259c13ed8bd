import PostStoreHTTP
import Testing

@Suite("Retry policy")
struct RetryPolicyTests {
    /// Retry, and the base wait the default policy (500 ms doubling, at most 30 s) uses for it.
    static let defaultBases: [(retry: Int, base: Duration)] = [
        (1, .milliseconds(500)),
        (2, .seconds(1)),
        (3, .seconds(2)),
        (6, .seconds(16)),
        (7, .seconds(30)),
        (100, .seconds(30)),
    ]

    @Test("the wait is between half the base and the base, which doubles up to the maximum", arguments: defaultBases)
    func schedule(retry: Int, base: Duration) {
        let policy = RetryPolicy()
        #expect(policy.delay(beforeRetry: retry, randomFraction: 0) == base / 2)
        #expect(policy.delay(beforeRetry: retry, randomFraction: 0.5) == base * 0.75)
        let nearlyAll = policy.delay(beforeRetry: retry, randomFraction: 0.999)
        #expect(nearlyAll > base * 0.99 && nearlyAll < base)
    }

    @Test("random fractions outside 0..<1 are clamped", arguments: [(-1.0, 0.5), (-0.0, 0.5), (1.0, 1.0), (7.5, 1.0)])
    func clampsTheFraction(fraction: Double, share: Double) {
        let policy = RetryPolicy()
        #expect(policy.delay(beforeRetry: 1, randomFraction: fraction) == .milliseconds(500) * share)
    }

    /// `RandomSource` is public, so a fraction can be anything; `Duration * Double.nan` traps.
    @Test("a NaN fraction waits half the base instead of trapping")
    func nanFraction() async {
        await #expect(processExitsWith: .success) {
            precondition(RetryPolicy().delay(beforeRetry: 1, randomFraction: .nan) == .milliseconds(250))
        }
    }

    @Test("a retry number below 1 waits as the first retry does", arguments: [0, -3])
    func retryBelowOne(retry: Int) {
        #expect(RetryPolicy().delay(beforeRetry: retry, randomFraction: 0) == .milliseconds(250))
    }

    @Test("an initial delay above the maximum is capped from the first retry")
    func initialDelayAboveMaximum() {
        let policy = RetryPolicy(initialDelay: .seconds(10), maximumDelay: .seconds(1))
        #expect(policy.delay(beforeRetry: 1, randomFraction: 0) == .milliseconds(500))
        #expect(policy.delay(beforeRetry: 3, randomFraction: 0) == .milliseconds(500))
    }

    @Test("maximumAttempts below 1 counts as 1", arguments: [(Int.min, 1), (-3, 1), (0, 1), (1, 1), (5, 5)])
    func maximumAttempts(requested: Int, kept: Int) {
        #expect(RetryPolicy(maximumAttempts: requested).maximumAttempts == kept)
    }

    @Test("never makes exactly one attempt")
    func never() {
        #expect(RetryPolicy.never.maximumAttempts == 1)
    }

    @Test("timeouts, rate limits and server errors are retried", arguments: [408, 429, 500, 502, 503, 504, 599])
    func retryableStatus(statusCode: Int) {
        #expect(RetryPolicy.isRetryable(statusCode: statusCode))
    }

    @Test(
        "success, redirects and other client errors are not",
        arguments: [200, 304, 400, 401, 403, 404, 410, 422, 600]
    )
    func finalStatus(statusCode: Int) {
        #expect(!RetryPolicy.isRetryable(statusCode: statusCode))
    }
}
