@testable import PostStore

/// Randomness that is always the same number.
struct FixedRandomSource: RandomSource {
    let fraction: Double

    func nextFraction() -> Double { fraction }
}
