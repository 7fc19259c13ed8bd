/// SplitMix64 (Steele, Lea and Flood): tiny, fast, and good enough to make text; fixed here so that the files do not
/// change with the standard library's generator.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        return Self.mix(state)
    }

    /// A number in 0..<bound by Lemire's multiply-shift (no division; the bias is below 2^-50 for our bounds).
    mutating func next(below bound: Int) -> Int {
        Int(truncatingIfNeeded: UInt64(bound).multipliedFullWidth(by: next()).high)
    }

    mutating func next(in range: ClosedRange<Int>) -> Int {
        range.lowerBound + next(below: range.count)
    }

    /// SplitMix64's output function: a bijective mix, also used to derive seeds.
    static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
