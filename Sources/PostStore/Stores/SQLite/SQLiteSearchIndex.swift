/// What goes into the `posts_search` FTS5 trigram index, and which search terms it answers exactly.
///
/// The index holds each post's title and body lowercased with Swift's `lowercased()` (the tokenizer is
/// case-sensitive), so a trigram phrase match of a lowercased term is exactly "the lowercased text contains the
/// term", for terms of three or more code points. Two exceptions keep that exact:
///
/// - FTS5 stops reading a value at a NUL character, so NUL is indexed as U+FFFF, a noncharacter; a term
///   containing either is decided without the index, since the two are indistinguishable in it.
/// - Terms of one or two code points have no trigram; they too are decided without the index.
enum SQLiteSearchIndex {
    /// The indexed form of a title or a body.
    static func text(_ text: String) -> String {
        let lowercased = text.lowercased()
        guard lowercased.utf8.contains(0) else { return lowercased }
        return String(String.UnicodeScalarView(lowercased.unicodeScalars.map { $0 == "\u{0}" ? stand : $0 }))
    }

    /// Whether the index alone decides a lowercased term exactly.
    static func answersExactly(_ term: String) -> Bool {
        term.unicodeScalars.count >= 3 && !term.unicodeScalars.contains { $0 == "\u{0}" || $0 == stand }
    }

    /// The character that stands for NUL in the index.
    private static let stand: Unicode.Scalar = "\u{FFFF}"
}
