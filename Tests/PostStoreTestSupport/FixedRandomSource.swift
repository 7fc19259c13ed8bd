@testable import PostStore

/// Randomness that is always the same number, so jittered delays are exact in tests.
struct FixedRandomSource: RandomSource {
    /// The number every call returns, in `0 ..< 1`.
    let fraction: Double

    /// Creates a source.
    ///
    /// - Parameter fraction: The number every call returns.
    init(fraction: Double) {
        self.fraction = fraction
    }

    func nextFraction() -> Double { fraction }
}
