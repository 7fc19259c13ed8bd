import PostStore
import PostStoreEngines

/// Randomness that is always the same number, so jittered delays are exact in tests.
package struct FixedRandomSource: RandomSource {
    /// The number every call returns, in `0 ..< 1`.
    package let fraction: Double

    /// Creates a source.
    ///
    /// - Parameter fraction: The number every call returns.
    package init(fraction: Double) {
        self.fraction = fraction
    }

    package func nextFraction() -> Double { fraction }
}
