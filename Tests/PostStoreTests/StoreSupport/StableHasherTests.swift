import Testing

@testable import PostStore

/// The hash behind revisions and `ETag`s is FNV-1a, the same in every process and whichever way its bytes come.
@Suite("Stable hasher")
struct StableHasherTests {
    /// FNV-1a's published 64-bit values.
    @Test(arguments: [
        ("", 0xcbf2_9ce4_8422_2325 as UInt64), ("a", 0xaf63_dc4c_8601_ec8c), ("foobar", 0x8594_4171_f739_67e8),
    ])
    func matchesFNV1a(text: String, expected: UInt64) {
        var contiguous = StableHasher()
        contiguous.combine(bytes: Array(text.utf8))
        #expect(contiguous.value == expected)
        // A sequence with no contiguous storage takes the byte-by-byte path.
        var piecewise = StableHasher()
        piecewise.combine(bytes: text.utf8.lazy.map { $0 })
        #expect(piecewise.value == expected)
    }
}
