/// Builds an HTML document as bytes, escaping every piece of text it is given: markup comes only from string
/// literals of the server's own (``markup(_:)``), and everything else — a post's title and body, a store's name, a
/// parameter echoed back — goes through ``text(_:)``, which leaves no way out of the element or attribute value it
/// is written in.
///
/// For example:
///
/// ```swift
/// var html = HTMLWriter()
/// html.markup("<td><bdi>")
/// html.text(post.title)
/// html.markup("</bdi></td>")
/// ```
package struct HTMLWriter {
    /// The document so far, UTF-8.
    package private(set) var bytes: [UInt8] = []

    init(capacity: Int = 16_384) {
        bytes.reserveCapacity(capacity)
    }

    /// Appends markup of the server's own, as it is.
    mutating func markup(_ markup: StaticString) {
        markup.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Appends text, escaped for an element's content or a double-quoted attribute value: `&`, `<`, `>`, `"` and
    /// `'` as character references, and each C0 control but tab, line feed and carriage return (which HTML does
    /// not allow in a document, and which could hide a title's end) as its Unicode control picture (U+2400 on).
    mutating func text(_ text: String) {
        var text = text
        text.withUTF8 { appendEscaped($0[...]) }
    }

    /// Appends text as ``text(_:)`` does, for an element's content only, with a `<wbr>` (a line break
    /// opportunity, which copies as nothing) in every word of more than ``wordBreakRun`` bytes.
    ///
    /// Chromium lays out a text node again each time the network brings more of it, so a megabyte's word took it
    /// half a minute to show; cut into words of at most ``wordBreakRun`` bytes, the same body shows in a second.
    mutating func prose(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            var word = WordLength()
            var start = utf8.startIndex
            for index in utf8.indices where word.breaks(before: utf8[index]) {
                appendEscaped(utf8[start..<index])
                markup("<wbr>")
                start = index
            }
            appendEscaped(utf8[start...])
        }
    }

    /// The most bytes of a word ``prose(_:)`` writes without a `<wbr>`.
    static let wordBreakRun = 256

    /// Whether a text holds a word (a run without white space) of more than ``wordBreakRun`` bytes, which
    /// ``prose(_:)`` would break.
    static func holdsALongWord(_ text: String) -> Bool {
        var word = WordLength()
        return text.utf8.contains { word.breaks(before: $0) }
    }

    /// The length of the word being written, which says where ``prose(_:)`` breaks it.
    private struct WordLength {
        private var bytes = 0

        /// Whether a `<wbr>` goes before this byte, which it then counts.
        mutating func breaks(before byte: UInt8) -> Bool {
            if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
                bytes = 0
                return false
            }
            // Only before the first byte of a scalar: a break never splits one.
            let breaks = bytes >= HTMLWriter.wordBreakRun && byte & 0xC0 != 0x80
            bytes = breaks ? 1 : bytes + 1
            return breaks
        }
    }

    /// Appends UTF-8 text, each byte that ``isEscaped(_:)`` as ``escape(_:)`` writes it.
    private mutating func appendEscaped(_ utf8: Slice<UnsafeBufferPointer<UInt8>>) {
        var start = utf8.startIndex
        for index in utf8.indices where Self.isEscaped(utf8[index]) {
            bytes.append(contentsOf: utf8[start..<index])
            escape(utf8[index])
            start = index + 1
        }
        bytes.append(contentsOf: utf8[start...])
    }

    /// Whether ``text(_:)`` writes a byte otherwise than as it is.
    private static func isEscaped(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "&"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "\""), UInt8(ascii: "'"): true
        case 0x09, 0x0A, 0x0D: false
        case 0x00..<0x20, 0x7F: true
        default: false
        }
    }

    /// Appends what an escaped byte is written as.
    private mutating func escape(_ byte: UInt8) {
        switch byte {
        case UInt8(ascii: "&"): markup("&amp;")
        case UInt8(ascii: "<"): markup("&lt;")
        case UInt8(ascii: ">"): markup("&gt;")
        case UInt8(ascii: "\""): markup("&quot;")
        case UInt8(ascii: "'"): markup("&#39;")
        case 0x7F: markup("\u{2421}")
        default: bytes.append(contentsOf: String(UnicodeScalar(0x2400 + UInt32(byte))!).utf8)
        }
    }

    /// Appends a number.
    mutating func number(_ value: Int) {
        bytes.append(contentsOf: String(value).utf8)
    }
}
