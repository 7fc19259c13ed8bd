/// Where retry jitter comes from: the one source of randomness in PostStore's services.
///
/// ``SystemRandomSource`` is the live implementation; tests inject a fixed value so backoff delays are exact.
package protocol RandomSource: Sendable {
    /// A number in `0 ..< 1`.
    ///
    /// - Returns: The next random fraction.
    func nextFraction() -> Double
}
