/// Lowercases UTF-8 text exactly as Swift's `String.lowercased()` does, into a buffer that is used again.
///
/// `lowercased()` maps each scalar on its own to its Unicode lowercase mapping (`İ` to `i` and a combining dot, `Σ`
/// to `σ` wherever it stands); for text that is not all ASCII it looks every scalar up in the Unicode tables and
/// builds a new string, which made a search of the text that is not ASCII spend most of its time there. Here ASCII
/// bytes are mapped in place and only the other scalars are looked up (``Unicode/Scalar/Properties/lowercaseMapping``),
/// with no allocation once the buffer has grown. The tests compare it with `lowercased()` for every scalar.
enum UTF8Lowercasing {
    /// Replaces `buffer`'s contents with the lowercased form of `text`.
    ///
    /// - Parameters:
    ///   - text: Valid UTF-8, as a Swift string holds it.
    ///   - buffer: Where the lowercased UTF-8 goes.
    static func lowercase(_ text: UnsafeBufferPointer<UInt8>, into buffer: inout [UInt8]) {
        buffer.removeAll(keepingCapacity: true)
        buffer.reserveCapacity(text.count)
        var index = 0
        while index < text.count {
            let lead = text[index]
            if lead < 0x80 {
                buffer.append(lead.lowercasedASCII)
                index += 1
                continue
            }
            let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
            var value = UInt32(lead) & (0x7F >> length)
            for offset in 1..<length {
                value = value << 6 | UInt32(text[index + offset] & 0x3F)
            }
            if let scalar = Unicode.Scalar(value) {
                buffer.append(contentsOf: scalar.properties.lowercaseMapping.utf8)
            }
            index += length
        }
    }
}
