import PostStore
import PostStoreTesting
import Testing

@testable import PostStoreCLI

/// The table measured in terminal columns, where a Hangul syllable or an emoji takes two.
@Suite struct PostTableTests {
    @Test(arguments: [30, 40, 60, 100])
    func everyLineFitsTheTerminalsColumns(width: Int) {
        let lines = PostTable.text(SamplePosts.tricky, width: width).split(separator: "\n").map(String.init)

        #expect(lines.count == SamplePosts.tricky.count + 1)
        #expect(lines.allSatisfy { PostTable.columns($0) <= width }, "\(lines)")
    }

    @Test func wideCharactersTakeTwoColumns() {
        #expect(PostTable.columns("abc") == 3)
        #expect(PostTable.columns("한국어") == 6)
        #expect(PostTable.columns("😀x") == 3)
        #expect(PostTable.columns("e\u{301}") == 1)
    }
}
