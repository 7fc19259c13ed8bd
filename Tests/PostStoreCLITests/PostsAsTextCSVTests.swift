import CSV
import Foundation
import PostStore
import PropertyBased
import Testing

@testable import PostStoreCLI

/// `--format csv` read back by an RFC 4180 reader that is not ours (CSV.swift, which reads Unicode scalars, so a
/// `"\r\n"` grapheme is two line-break scalars to it, as it is two bytes to any CSV reader).
@Suite struct PostsAsTextCSVTests {
    // MARK: Generators

    /// Pieces of text that break a writer deciding by `Character`: line breaks alone and combined (CRLF is one
    /// `Character`, LF CR two), other line-like separators, NUL, quotes and commas (also followed by a combining mark,
    /// which makes them part of a larger `Character`), spaces, joined emoji and Hangul.
    static let pieces: [String] = [
        "\r", "\n", "\r\n", "\n\r", "\u{2028}", "\u{2029}", "\u{85}", "\u{0}", "\u{B}", "\u{C}", "\t", "\"", "\"\"",
        ",", "\"\u{301}", ",\u{301}", "\r\u{301}", "\n\u{301}", " ", "  ", "\u{A0}", "\u{301}", "\u{200D}", "\u{FE0F}",
        "e\u{301}", "é", "👩‍👩‍👧", "👍🏽", "🇰🇷", "안녕", "a", "ipsum", "\u{1B}[31m", "\u{FEFF}", "\u{10FFFF}",
    ]

    /// Any scalar but the surrogates, which `Unicode.Scalar` cannot hold.
    static let anyScalar = Gen.int(in: 0...0x10FFFF).map { String(Unicode.Scalar(UInt32($0)) ?? "\u{FFFD}") }

    /// Text made of ``pieces`` and any scalars, up to sixteen of them.
    static let text = zip(Gen.int(in: 0...3), Gen.element(of: pieces), anyScalar).map { kind, piece, scalar in
        kind == 0 ? scalar : piece ?? ""
    }.array(of: 0...16).map { $0.joined() }

    static let post = zip(Gen.int(), Gen.int(), text, text).map { userId, id, title, body in
        Post(userId: userId, id: id, title: title, body: body)
    }

    // MARK: Tests

    @Test("any post written as CSV reads back as the same four fields, byte for byte")
    func everyPostRoundTrips() async {
        await propertyCheck(count: 500, input: Self.post.array(of: 0...4)) { posts in
            let csv = PostsAsText.csv(posts)
            let records = Self.records(csv)
            #expect(records.first == ["id", "userId", "title", "body"])
            #expect(records.count == posts.count + 1, "\(Self.shown(csv))")
            for (post, record) in zip(posts, records.dropFirst()) {
                #expect(Self.fields(record) == Self.fields(post), "\(Self.shown(csv))")
            }
        }
    }

    /// The reported case (a CRLF inside Hangul text), and each kind of line break or quote on its own.
    @Test(arguments: [
        "안녕\r\nipsum", "a\rb", "a\nb", "a\n\rb", "\r\n", "a\"\u{301}b", "a,\u{301}b", "\"\u{301}", " lead and trail ",
        "\u{2028}\u{85}\u{0}", "👩‍👩‍👧,\"x\"",
    ])
    func aFieldWithALineBreakOrQuoteStaysOneField(body: String) {
        let post = Post(userId: 1, id: 2, title: body, body: body)

        let records = Self.records(PostsAsText.csv([post]))

        #expect(records.count == 2, "\(Self.shown(PostsAsText.csv([post])))")
        #expect(records.dropFirst().first.map(Self.fields) == Self.fields(post))
    }

    /// Records end with CRLF (RFC 4180, and the README), and a field is quoted only when it must be.
    @Test func recordsEndWithCRLFAndPlainFieldsAreNotQuoted() {
        let posts = [
            Post(userId: 3, id: 1, title: "plain title", body: " spaces kept "),
            Post(userId: 3, id: 2, title: "a\r\nb", body: "say \"hi\", then"),
        ]

        let csv = PostsAsText.csv(posts)

        #expect(
            csv
                == "id,userId,title,body\r\n1,3,plain title, spaces kept \r\n2,3,\"a\r\nb\",\"say \"\"hi\"\", then\"\r\n"
        )
    }

    /// The reader used above is a fair judge: it reads CRLF inside quotes as text and a CRLF grapheme between
    /// records as the end of a record.
    @Test func theIndependentReaderFollowsRFC4180() {
        let records = Self.records("a,b\r\n\"x\r\ny\",\"q\"\"\u{301}\"\r\nc,d\r\n")

        #expect(records.map(Self.fields) == [["a", "b"], ["x\r\ny", "q\"\u{301}"], ["c", "d"]].map(Self.fields))
    }

    // MARK: Helpers

    /// The records CSV.swift reads from the text's UTF-8 bytes.
    static func records(_ csv: String) -> [[String]] {
        guard let reader = try? CSVReader(stream: InputStream(data: Data(csv.utf8))) else { return [] }
        var records: [[String]] = []
        while let record = reader.next() { records.append(record) }
        return records
    }

    /// A post's four fields as bytes (`String ==` would call canonically equivalent text equal).
    static func fields(_ post: Post) -> [[UInt8]] {
        [String(post.id), String(post.userId), post.title, post.body].map { Array($0.utf8) }
    }

    /// A record's fields as bytes.
    static func fields(_ record: [String]) -> [[UInt8]] {
        record.map { Array($0.utf8) }
    }

    /// The CSV with every scalar visible, for a failure message.
    static func shown(_ csv: String) -> String {
        csv.unicodeScalars.map { $0.escaped(asASCII: true) }.joined()
    }
}
