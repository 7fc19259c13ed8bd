/// A 64-bit FNV-1a hash whose value is the same in every process and on every machine, unlike Swift's `Hasher`
/// (seeded anew per process): for values kept or sent elsewhere, such as a revision or an `ETag`. Not a defence
/// against anyone choosing collisions.
package struct StableHasher {
    private var state: UInt64 = 0xcbf2_9ce4_8422_2325

    package init() {}

    /// Mixes in bytes.
    package mutating func combine(bytes: some Sequence<UInt8>) {
        // Callers in other modules get this function unspecialized: contiguous bytes (an array, a native string's
        // UTF-8) are read through a buffer, not one generic call per byte.
        let hashed = bytes.withContiguousStorageIfAvailable { buffer in
            var state = self.state
            for byte in buffer { state = (state ^ UInt64(byte)) &* 0x100_0000_01b3 }
            return state
        }
        if let hashed {
            state = hashed
            return
        }
        for byte in bytes {
            state = (state ^ UInt64(byte)) &* 0x100_0000_01b3
        }
    }

    /// Mixes in a text's UTF-8 bytes and its length, so that `("ab", "c")` and `("a", "bc")` differ.
    package mutating func combine(_ text: String) {
        combine(utf8: text.utf8)
    }

    /// Mixes in a text's UTF-8 bytes and its length, as combining the same text as a `String` does.
    package mutating func combine(utf8 text: some Collection<UInt8>) {
        combine(bytes: text)
        combine(text.count)
    }

    /// Mixes in an integer's eight bytes.
    package mutating func combine(_ value: Int) {
        withUnsafeBytes(of: UInt64(bitPattern: Int64(value)).littleEndian) { combine(bytes: $0) }
    }

    /// 16 random hexadecimal digits from the system's generator: a name for a new store or instance.
    static func random() -> String {
        var hasher = StableHasher()
        hasher.state = UInt64.random(in: .min ... .max)
        return hasher.hexadecimal
    }

    /// The hash.
    package var value: UInt64 { state }

    /// The hash as 16 lowercase hexadecimal digits.
    package var hexadecimal: String {
        let digits = String(state, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
