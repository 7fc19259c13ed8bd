import PostStore
import PostStoreTesting
import Testing

@testable import PostStoreCLI

/// The table measured in terminal columns, where a Hangul syllable or an emoji takes two.
@Suite struct PostsAsTextTests {
    @Test(arguments: [30, 40, 60, 100])
    func everyLineFitsTheTerminalsColumns(width: Int) {
        let lines = PostsAsText.text(SamplePosts.tricky, width: width).split(separator: "\n").map(String.init)

        #expect(lines.count == SamplePosts.tricky.count + 1)
        #expect(lines.allSatisfy { PostsAsText.columns($0) <= width }, "\(lines)")
    }

    /// A post's text must not command the terminal: escape sequences, BEL and C1 controls are shown, not sent.
    @Test func controlCharactersAreShownNotSent() {
        let post = Post(userId: 1, id: 1, title: "\u{1B}]0;pwned\u{07}\u{1B}[31mRED", body: "a\u{9B}b\u{7F}\u{2028}c")

        let table = PostsAsText.text([post], width: 200)

        #expect(!table.unicodeScalars.contains { $0.properties.generalCategory == .control && $0 != "\n" })
        #expect(table.contains(#"\u{1B}]0;pwned\u{07}\u{1B}[31mRED"#), "\(table)")
        #expect(table.contains(#"a\u{009B}b\u{7F} c"#), "\(table)")
    }

    /// A control followed by a combining mark, a CRLF, a lone CR and NUL with a mark: each is escaped or a space, since
    /// the table looks at code points, not at `Character`s (`"\r\n"` is one `Character`).
    @Test(arguments: [
        "\u{1B}\u{301}[31m", "a\r\nb", "a\rb", "a\n\rb", "\u{0}\u{301}", "\u{85}\u{301}", "\u{9B}\u{200D}",
    ])
    func controlsCombinedWithMarksAreShownNotSent(text: String) {
        let post = Post(userId: 1, id: 1, title: text, body: text)

        let table = PostsAsText.text([post], width: 200)

        #expect(!table.unicodeScalars.contains { $0.properties.generalCategory == .control && $0 != "\n" }, "\(table)")
        #expect(table.utf8.count(where: { $0 == UInt8(ascii: "\n") }) == 2, "\(table)")
    }

    @Test func wideCharactersTakeTwoColumns() {
        #expect(PostsAsText.columns("abc") == 3)
        #expect(PostsAsText.columns("한국어") == 6)
        #expect(PostsAsText.columns("😀x") == 3)
        #expect(PostsAsText.columns("e\u{301}") == 1)
    }
}
