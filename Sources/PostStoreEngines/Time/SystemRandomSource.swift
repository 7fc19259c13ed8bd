/// Randomness from the system's generator.
package struct SystemRandomSource: RandomSource {
    /// Creates the source.
    package init() {}

    package func nextFraction() -> Double { Double.random(in: 0..<1) }
}
