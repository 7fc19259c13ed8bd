/// The `posts_search` FTS5 trigram index: what goes into it, how it is kept, and which terms it answers exactly.
///
/// The index holds each post's title and body lowercased with Swift's `lowercased()` (the tokenizer is
/// case-sensitive), so a trigram phrase match of a lowercased term is exactly "the lowercased text contains the
/// term", for terms of three or more code points. Two exceptions keep that exact:
///
/// - FTS5 stops reading a value at a NUL character, so NUL is indexed as U+FFFF, a noncharacter; a term
///   containing either is decided without the index, since the two are indistinguishable in it.
/// - Terms of one or two code points have no trigram; they too are decided without the index.
///
/// A store opened without the index writes posts without it and marks it stale in `poststore_settings`; a store
/// that keeps the index rebuilds a stale one in one statement before it relies on it again.
struct SQLiteSearchIndex {
    /// The connection whose index this is.
    let connection: SQLiteConnection

    /// The indexed form of a title or a body.
    static func text(_ text: String) -> String {
        let lowercased = text.lowercased()
        guard lowercased.utf8.contains(0) else { return lowercased }
        return String(String.UnicodeScalarView(lowercased.unicodeScalars.map { $0 == "\u{0}" ? standIn : $0 }))
    }

    /// Whether the index alone decides a lowercased term exactly.
    static func answersExactly(_ term: String) -> Bool {
        term.unicodeScalars.count >= 3 && !term.unicodeScalars.contains { $0 == "\u{0}" || $0 == standIn }
    }

    /// The character that stands for NUL in the index.
    private static let standIn: Unicode.Scalar = "\u{FFFF}"

    /// Adds a post's text.
    func add(_ post: Post) throws(SQLiteError) {
        try write("INSERT INTO posts_search (rowid, title, body) VALUES (?, ?, ?)", post)
    }

    /// Removes a post's text; a contentless index needs the very text that was added.
    func remove(_ post: Post) throws(SQLiteError) {
        try write("INSERT INTO posts_search (posts_search, rowid, title, body) VALUES ('delete', ?, ?, ?)", post)
    }

    /// Removes every post's text.
    func removeAll() throws(SQLiteError) {
        try connection.execute("INSERT INTO posts_search (posts_search) VALUES ('delete-all')")
    }

    /// Whether the index holds exactly the posts table's text (no connection without the index wrote since).
    func isCurrent() throws(SQLiteError) -> Bool {
        try connection.withStatement("SELECT 1 FROM poststore_settings WHERE key = 'search_index' AND value = 'stale'")
        {
            statement throws(SQLiteError) in
            try !statement.step()
        }
    }

    /// Records that posts are being written without the index; call inside the write transaction.
    func markStale() throws(SQLiteError) {
        try connection.execute(
            "INSERT OR REPLACE INTO poststore_settings (key, value) VALUES ('search_index', 'stale')"
        )
    }

    /// Rebuilds the whole index from the posts table in one statement and marks it current; call inside a write
    /// transaction.
    func rebuild() throws(SQLiteError) {
        try removeAll()
        try connection.execute(
            """
            INSERT INTO posts_search (rowid, title, body)
            SELECT id, \(SQLiteSearchFunction.indexTextName)(title), \(SQLiteSearchFunction.indexTextName)(body) FROM posts;
            DELETE FROM poststore_settings WHERE key = 'search_index';
            """
        )
    }

    private func write(_ sql: String, _ post: Post) throws(SQLiteError) {
        try connection.withStatement(sql) { statement throws(SQLiteError) in
            try statement.bind(post.id, Self.text(post.title), Self.text(post.body))
            try statement.run()
        }
    }
}
