import PostStore

/// When ``HTTPPostDataService`` tries a request again, and how long it waits in between.
///
/// A connection failure, a timeout, and the statuses 408, 429 and 5xx are retried until ``maximumAttempts``
/// requests were made; any other 4xx fails at once. The wait before retry *n* is exponential backoff with equal
/// jitter: half of `min(initialDelay × 2ⁿ⁻¹, maximumDelay)` plus a random part of up to the other half, so
/// clients that failed together do not come back together. A `Retry-After` header lengthens the wait to what the
/// server asked for, unless it asks for more than ``maximumRetryAfter``: then the request fails at once rather
/// than hang.
///
/// For example, the default policy waits about 0.25–0.5 s, 0.5–1 s and 1–2 s before its three retries.
public struct RetryPolicy: Sendable, Hashable {
    /// How many requests to make at most, the first included; 1 means no retries.
    public var maximumAttempts: Int

    /// The base wait before the first retry.
    public var initialDelay: Duration

    /// The most the base wait grows to.
    public var maximumDelay: Duration

    /// The longest `Retry-After` honoured; a server asking for a longer wait fails the request.
    public var maximumRetryAfter: Duration

    /// Creates a policy.
    ///
    /// - Parameters:
    ///   - maximumAttempts: How many requests to make at most; values below 1 count as 1.
    ///   - initialDelay: The base wait before the first retry.
    ///   - maximumDelay: The most the base wait grows to.
    ///   - maximumRetryAfter: The longest `Retry-After` honoured.
    public init(
        maximumAttempts: Int = 4,
        initialDelay: Duration = .milliseconds(500),
        maximumDelay: Duration = .seconds(30),
        maximumRetryAfter: Duration = .seconds(120)
    ) {
        self.maximumAttempts = max(maximumAttempts, 1)
        self.initialDelay = initialDelay
        self.maximumDelay = maximumDelay
        self.maximumRetryAfter = maximumRetryAfter
    }

    /// Never retries.
    public static let never = RetryPolicy(maximumAttempts: 1)

    /// Whether an answer with this status is worth asking for again.
    ///
    /// - Parameter statusCode: The HTTP status.
    /// - Returns: `true` for 408, 429 and 500–599.
    package static func isRetryable(statusCode: Int) -> Bool {
        statusCode == 408 || statusCode == 429 || (500...599).contains(statusCode)
    }

    /// The wait before a retry.
    ///
    /// - Parameters:
    ///   - retry: Which retry, from 1 (the second attempt).
    ///   - randomFraction: A number in `0 ..< 1` from a `RandomSource`.
    /// - Returns: Between half of the base wait and the base wait.
    package func delay(beforeRetry retry: Int, randomFraction: Double) -> Duration {
        var base = initialDelay
        for _ in 1..<max(retry, 1) where base < maximumDelay {
            base *= 2
        }
        base = min(base, maximumDelay)
        let fraction = randomFraction.isNaN ? 0 : min(max(randomFraction, 0), 1)
        return base / 2 + (base / 2) * fraction
    }
}
