import PropertyBased
import Testing

@testable import PostStoreServer

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
            #expect(!written.contains { "<>\"'".contains($0) })
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
            let pieces = String(decoding: html.bytes, as: UTF8.self).components(separatedBy: "<wbr>")
            #expect(!pieces.joined().contains { "<>\"'".contains($0) })
            #expect(pieces.map(Self.unescaped).joined() == Self.visible(text))
            let words = pieces.map(Self.unescaped).flatMap { piece in
                piece.unicodeScalars.split(whereSeparator: { [" ", "\t", "\n", "\r"].contains($0) })
            }
            #expect(words.map(\.count).max() ?? 0 <= HTMLWriter.wordBreakRun, "no word of more scalars than the run")
        }
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
