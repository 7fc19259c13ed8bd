import PropertyBased
import Testing

@testable import PostStore

@Suite("UTF-8 lowercasing")
struct UTF8LowercasingTests {
    /// The lowercased bytes of `text`.
    private func lowercase(_ text: String) -> [UInt8] {
        var text = text
        var buffer: [UInt8] = [0xFF]
        text.withUTF8 { UTF8Lowercasing.lowercase($0, into: &buffer) }
        return buffer
    }

    @Test("every scalar lowercases as String.lowercased() lowercases it")
    func everyScalar() {
        var differing: [UInt32] = []
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let text = String(Character(scalar))
            if lowercase(text) != Array(text.lowercased().utf8) { differing.append(value) }
        }
        #expect(differing.isEmpty, "differ: \(differing.prefix(20).map { String($0, radix: 16) })")
    }

    @Test("text mixing ASCII, special mappings and scalars of every length lowercases as lowercased() does")
    func mixedText() async {
        let pieces = [
            "A", "z", "İ", "Σ", "ΣΑΣ", "ß", "ẞ", "\u{212A}", "Ǆ", "ǅ", "\u{0}", "É", "e\u{301}", "😀", "𐐀", "한", " ",
        ]
        await propertyCheck(count: 300, input: Gen.element(of: pieces).array(of: 0...12)) { pieces in
            let text = pieces.compactMap { $0 }.joined()
            #expect(lowercase(text) == Array(text.lowercased().utf8), "\(text.unicodeScalars.map(\.value))")
        }
    }
}
