import PropertyBased
import Testing

@testable import PostStorePages

/// Whatever text goes through ``HTMLWriter/text(_:)``, it cannot end its element or attribute, and reads back as
/// itself (control characters as their pictures).
@Suite struct HTMLWriterTests {
    @Test func specialCharactersAreCharacterReferences() {
        var html = HTMLWriter()
        html.text("<a href=\"x\" onclick='y'>&amp;</a>\t\n\r")
        #expect(
            String(decoding: html.bytes, as: UTF8.self)
                == "&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;\t\n\r"
        )
    }

    @Test func anyTextReadsBackAsItselfAndHoldsNoMarkup() async {
        // Mostly ASCII, where the special characters are, and any scalar besides.
        let anyText = zip(Gen.int(in: 0...0x7F), Gen.int(in: 0...0x10FFFF), Gen.bool).map { ascii, any, pick in
            Unicode.Scalar(UInt32(pick ? ascii : any)) ?? "\u{FFFD}"
        }.array(of: 0...40).map { String(String.UnicodeScalarView($0)) }
        await propertyCheck(count: 500, input: anyText) { text in
            var html = HTMLWriter()
            html.text(text)
            let written = String(decoding: html.bytes, as: UTF8.self)
            #expect(!Self.holdsMarkup(written))
            #expect(Self.unescaped(written) == Self.visible(text))
        }
    }

    @Test func proseIsTextWithABreakInEveryLongWord() async {
        // Long words of any scalars, the odd space between them.
        let anyWord = zip(Gen.int(in: 0...0x10FFFF), Gen.int(in: 0...40)).map { any, pick in
            pick == 0 ? " " : pick < 20 ? "&" : Unicode.Scalar(UInt32(any)) ?? "\u{FFFD}"
        }.array(of: 0...700).map { String(String.UnicodeScalarView($0)) }
        await propertyCheck(count: 200, input: anyWord) { text in
            var html = HTMLWriter()
            html.prose(text)
            let pieces = Self.pieces(of: html.bytes, between: "<wbr>")
            #expect(!Self.holdsMarkup(pieces.joined()))
            #expect(pieces.map(Self.unescaped).joined() == Self.visible(text))
            let words = pieces.map(Self.unescaped).flatMap { piece in
                piece.unicodeScalars.split(whereSeparator: { [" ", "\t", "\n", "\r"].contains($0) })
            }
            #expect(words.map(\.count).max() ?? 0 <= HTMLWriter.wordBreakRun, "no word of more scalars than the run")
        }
    }

    /// Whether a text holds a character of markup, scalar by scalar (`<` followed by a combining mark is one
    /// Character with it, which a Character-wise search would not find).
    private static func holdsMarkup(_ text: String) -> Bool {
        text.unicodeScalars.contains { "<>\"'".unicodeScalars.contains($0) }
    }

    /// The text between the separators, split byte by byte (as `holdsMarkup`, a separator followed by a combining
    /// mark would not be found Character-wise).
    private static func pieces(of bytes: [UInt8], between separator: String) -> [String] {
        let separator = Array(separator.utf8)
        var pieces: [String] = []
        var start = 0
        var index = 0
        while index < bytes.count {
            if bytes[index...].starts(with: separator) {
                pieces.append(String(decoding: bytes[start..<index], as: UTF8.self))
                index += separator.count
                start = index
            } else {
                index += 1
            }
        }
        pieces.append(String(decoding: bytes[start...], as: UTF8.self))
        return pieces
    }

    /// Reverses the five references, scalar by scalar (a reference followed by a combining mark is one Character
    /// with it, which a Character-wise replacement would not match).
    private static func unescaped(_ html: String) -> String {
        let references: [(String, Unicode.Scalar)] = [
            ("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&amp;", "&"),
        ]
        var scalars = Substring.UnicodeScalarView(html.unicodeScalars)
        var result = String.UnicodeScalarView()
        while let first = scalars.first {
            if first == "&",
                let (reference, scalar) = references.first(where: { scalars.starts(with: $0.0.unicodeScalars) })
            {
                result.append(scalar)
                scalars.removeFirst(reference.unicodeScalars.count)
            } else {
                result.append(first)
                scalars.removeFirst()
            }
        }
        return String(result)
    }

    /// The text with its C0 controls (but tab, line feed and carriage return) and DEL as their pictures.
    private static func visible(_ text: String) -> String {
        String(
            String.UnicodeScalarView(
                text.unicodeScalars.map { scalar in
                    switch scalar.value {
                    case 0x09, 0x0A, 0x0D: scalar
                    case 0..<0x20: Unicode.Scalar(0x2400 + scalar.value)!
                    case 0x7F: "\u{2421}"
                    default: scalar
                    }
                }
            )
        )
    }
}
