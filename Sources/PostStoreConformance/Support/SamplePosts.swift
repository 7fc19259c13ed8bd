import PostStore

/// The posts the checks write: the same as `PostStoreTesting`'s `SamplePosts.make(count:firstId:)` and
/// `SamplePosts.tricky`, kept here so that the contract's data cannot change with the doubles, and so that this
/// module depends on the core only.
enum SamplePosts {
    /// `count` posts with ids `firstId…`, ten per user, titles and bodies in JSONPlaceholder's style, the same on
    /// every call.
    static func make(count: Int, firstId: Int = 1) -> [Post] {
        let words = ["lorem", "ipsum", "dolor", "sit", "amet", "qui", "est", "esse", "quia", "et", "suscipit"]
        return (firstId..<(firstId + count)).map { id in
            let title = (0..<4).map { words[(id * 7 + $0 * 3) % words.count] }.joined(separator: " ")
            let body = (0..<3).map { line in
                (0..<5).map { words[(id * 13 + line * 5 + $0) % words.count] }.joined(separator: " ")
            }.joined(separator: "\n")
            return Post(userId: (id - 1) / 10 + 1, id: id, title: title, body: body)
        }
    }

    /// Posts whose text exercises every corner: emoji, Korean, accents both composed and decomposed, quotes,
    /// newlines, `%`, `_`, backslashes, SQL, NUL characters, and extreme ids.
    static let tricky: [Post] = [
        Post(userId: 1, id: 1, title: "Emoji 😀 party 🎉", body: "smile 😀 and\nnew lines\r\nand tabs\t."),
        Post(userId: 1, id: 2, title: "한국어 제목", body: "안녕하세요 세계"),
        Post(userId: 2, id: 3, title: "Caf\u{E9} precomposed", body: "CAFÉ upper"),
        Post(userId: 2, id: 4, title: "Cafe\u{301} decomposed", body: "e\u{301}"),
        Post(userId: 3, id: 5, title: "quotes \"double\" 'single'", body: "100% of_the_time \\ backslash"),
        Post(userId: 3, id: 6, title: "Robert'); DROP TABLE posts;--", body: "SELECT * FROM posts WHERE 1=1"),
        Post(userId: 4, id: 7, title: "nul\u{0}inside", body: "\u{0}\u{0}"),
        Post(userId: 4, id: 8, title: "", body: ""),
        Post(userId: -5, id: -9, title: "Negative ids", body: "STRASSE straße İstanbul"),
        Post(userId: Int.max, id: Int.max, title: "max", body: "min"),
        Post(userId: Int.min, id: Int.min, title: "MIN", body: "MAX"),
    ]
}
