public import PostStore

/// Randomness that is always the same number, so jittered delays are exact in tests.
public struct FixedRandomSource: RandomSource {
    /// The number every call returns, in `0 ..< 1`.
    public let fraction: Double

    /// Creates a source.
    ///
    /// - Parameter fraction: The number every call returns.
    public init(fraction: Double) {
        self.fraction = fraction
    }

    public func nextFraction() -> Double { fraction }
}
