/// Randomness from the system's generator.
public struct SystemRandomSource: RandomSource {
    /// Creates the source.
    public init() {}

    public func nextFraction() -> Double { Double.random(in: 0..<1) }
}
