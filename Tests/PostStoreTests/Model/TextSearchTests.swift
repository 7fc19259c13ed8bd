import Testing

@testable import PostStore

@Suite("Text search semantics")
struct TextSearchTests {
    @Test("terms are split on any whitespace and lowercased")
    func terms() {
        #expect(TextSearch("  Qui\tEST\nesse \u{3000}ÉTÉ ").terms == ["qui", "est", "esse", "été"])
        #expect(TextSearch("").isEmpty)
        #expect(TextSearch(" \n ").isEmpty)
    }

    @Test("each term must occur in the title or in the body, case-insensitively")
    func matching() {
        let post = Post(userId: 1, id: 1, title: "Qui est esse", body: "Sunt AUT facere")
        #expect(TextSearch("QUI").matches(post))
        #expect(TextSearch("aut qui").matches(post))
        #expect(TextSearch("i e").matches(post), "substrings, not words")
        #expect(!TextSearch("qui nowhere").matches(post))
        #expect(!TextSearch("esse sunt").matches(Post(userId: 1, id: 1, title: "esse", body: "")))
        #expect(TextSearch("").matches(post))
    }

    @Test("substrings are compared by code points, with no normalization")
    func codePoints() {
        let composed = Post(userId: 1, id: 1, title: "caf\u{E9}", body: "")
        let decomposed = Post(userId: 1, id: 2, title: "cafe\u{301}", body: "")
        #expect(TextSearch("café").matches(composed))
        #expect(!TextSearch("café").matches(decomposed))
        #expect(TextSearch("cafe").matches(decomposed))
        #expect(!TextSearch("cafe").matches(composed))
    }

    @Test("what README says follows from using Swift's own splitting and lowercasing")
    func swiftSemanticsAsDocumented() {
        #expect(!TextSearch("σίσυφος").matches(Post(userId: 1, id: 1, title: "ΣΊΣΥΦΟΣ", body: "")), "no final sigma")
        #expect(TextSearch("σίσυφοσ").matches(Post(userId: 1, id: 1, title: "ΣΊΣΥΦΟΣ", body: "")))
        #expect(!TextSearch("istanbul").matches(Post(userId: 1, id: 1, title: "İstanbul", body: "")))
        #expect(TextSearch("a \u{301}b").terms == ["a", "b"], "the combining mark goes with the space")
    }

    @Test("searches and queries that differ only in normalization are different, as their matches are")
    func equalityIsByBytes() {
        #expect(TextSearch("caf\u{E9}") != TextSearch("cafe\u{301}"))
        #expect(PostQuery(search: "caf\u{E9}") != PostQuery(search: "cafe\u{301}"))
        #expect(PostQuery(search: "x", limit: 3) == PostQuery(search: "x", limit: 3))
        #expect(Set([PostQuery(search: "caf\u{E9}"), PostQuery(search: "cafe\u{301}")]).count == 2)
    }

    @Test("a term never matches across the title and the body")
    func noMatchAcrossFields() {
        #expect(!TextSearch("ab").matches(Post(userId: 1, id: 1, title: "a", body: "b")))
    }

    @Test("containsCodePoints finds needles anywhere and handles edges")
    func substringSearch() {
        #expect("abcabd".containsCodePoints(of: "abd"))
        #expect("aaab".containsCodePoints(of: "aab"))
        #expect("x".containsCodePoints(of: ""))
        #expect(!"ab".containsCodePoints(of: "abc"))
        #expect(!"".containsCodePoints(of: "a"))
        #expect("a\u{0}b".containsCodePoints(of: "\u{0}b"))
        #expect("😀😁".containsCodePoints(of: "😁"))
        // The edges of the memchr/memcmp search: the needle at the very end, the whole haystack, one byte.
        #expect("xyab".containsCodePoints(of: "ab"))
        #expect("ab".containsCodePoints(of: "b"))
        #expect("ab".containsCodePoints(of: "ab"))
        #expect("".containsCodePoints(of: ""))
        #expect(!"ab".containsCodePoints(of: "c"))
        #expect(!"abab".containsCodePoints(of: "abb"))
        #expect(!"aba".containsCodePoints(of: "ab\u{0}"))
    }
}
