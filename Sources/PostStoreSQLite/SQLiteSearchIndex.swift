import PostStore

/// The `posts_search` FTS5 trigram index: what goes into it, how it is kept, and how it narrows a search.
///
/// The index holds each post's title and body lowercased with Swift's `lowercased()` (the tokenizer is
/// case-sensitive) and no positions (`detail = none`). A post whose lowercased text contains a term contains every
/// trigram of the term, so "has all the trigrams of every term of three or more code points" selects a superset of
/// the matches, which ``SQLiteSearchFunction`` then decides exactly. Two details keep it a superset:
///
/// - FTS5 stops reading a value at a NUL character, so NUL is indexed as U+FFFF, a noncharacter; terms containing
///   either are not used to narrow, since the two are indistinguishable in the index. (The tokenizer itself folds
///   U+FFFE, U+FFFF and invalid sequences into U+FFFD, in documents and queries alike, so that keeps a superset.)
/// - Terms of one or two code points have no trigram and do not narrow.
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

    /// The FTS5 query that selects the posts holding every trigram of the terms that can narrow, or `nil` when no
    /// term can.
    ///
    /// - Parameter terms: Lowercased search terms.
    /// - Returns: The trigrams as quoted FTS5 strings joined by spaces (FTS5's implicit AND), for example
    ///   `"abc" "bcd"` for `abcd`.
    static func matchExpression(for terms: [String]) -> String? {
        var trigrams = Set<String>()
        for term in terms {
            let scalars = Array(term.unicodeScalars)
            guard scalars.count >= 3, !scalars.contains(where: { $0 == "\u{0}" || $0 == standIn }) else { continue }
            for start in 0...(scalars.count - 3) {
                trigrams.insert(String(String.UnicodeScalarView(scalars[start..<(start + 3)])))
            }
        }
        guard !trigrams.isEmpty else { return nil }
        // A quoted FTS5 string doubles its quotes; done per code point, since `"` followed by a combining mark is
        // one Character and Character-based splitting would miss it.
        return trigrams.sorted().map { trigram in
            var quoted = String.UnicodeScalarView([#"""#])
            for scalar in trigram.unicodeScalars {
                quoted.append(scalar)
                if scalar == #"""# { quoted.append(scalar) }
            }
            quoted.append(#"""#)
            return String(quoted)
        }.joined(separator: " ")
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

    /// How many posts ``rebuild(reportsProgress:progress:)`` indexes between two reports: several a second.
    static let rebuildReportInterval = 10_000

    /// Rebuilds the whole index from the posts table in one statement and marks it current; call inside a write
    /// transaction.
    ///
    /// The statement passes each post's id through a counting SQL function, which reports every
    /// ``rebuildReportInterval`` rows: progress from inside the one statement. (Cutting it into statements of
    /// 10,000 rows instead made it 6% slower: FTS5 writes its pending rows to a segment of their own at the end of
    /// each statement, so it had more segments to merge.)
    ///
    /// FTS5 writes its pending rows to a new segment every megabyte or so and merges segments four at a time, a
    /// level up. Merging as it goes leaves a few large segments on a low level, owed a merge that later writes pay
    /// in bursts (on a million-post store, one single-post write in 64 took tens to hundreds of times longer). So
    /// the statement runs with automatic merging off (FTS5 still merges 16 segments of one level at once, a "crisis
    /// merge", which stacks them a few levels high), and one `optimize` merges everything into one segment, on a
    /// level above all of them: there small writes take hundreds of writes to reach it. It builds faster too.
    /// (Without the crisis merges the one segment lands on level 1, where the next few writes merge into it, each
    /// for seconds.) The figures are in Benchmarks/README.md, "Figures behind the code".
    ///
    /// - Parameters:
    ///   - reportsProgress: Whether to count the rows; the benchmark compares the build with and without it.
    ///   - progress: Told of the `indexing` phase: its start, every ``rebuildReportInterval`` rows, its end.
    func rebuild(reportsProgress: Bool = true, progress: (WorkProgress) -> Void = { _ in }) throws(SQLiteError) {
        try removeAll()
        let total = try connection.withStatement("SELECT count(*) FROM posts") { statement throws(SQLiteError) in
            _ = try statement.step()
            return statement.int(at: 0)
        }
        progress(WorkProgress(phase: .indexing, completed: 0, total: total))
        let textFunction = SQLiteSearchFunction.indexTextName
        let counter = "poststore_counted_row"
        let insert = { (id: String) throws(SQLiteError) in
            try self.connection.execute(
                """
                INSERT INTO posts_search (rowid, title, body)
                SELECT \(id), \(textFunction)(title), \(textFunction)(body) FROM posts
                """
            )
        }
        try connection.execute("INSERT INTO posts_search (posts_search, rank) VALUES ('automerge', 0)")
        do {
            if reportsProgress {
                try connection.withRowCounter(named: counter, every: Self.rebuildReportInterval) { indexed in
                    if indexed < total { progress(WorkProgress(phase: .indexing, completed: indexed, total: total)) }
                } _: {
                    try insert("\(counter)(id)")
                }
            } else {
                try insert("id")
            }
        } catch let error as SQLiteError {
            throw error
        } catch {
            preconditionFailure("only SQLite errors are thrown here: \(error)")
        }
        // FTS5's default again for the writes that follow.
        try connection.execute(
            """
            INSERT INTO posts_search (posts_search) VALUES ('optimize');
            INSERT INTO posts_search (posts_search, rank) VALUES ('automerge', 4);
            DELETE FROM poststore_settings WHERE key = 'search_index';
            """
        )
        progress(WorkProgress(phase: .indexing, completed: total, total: total, isFinished: true))
    }

    private func write(_ sql: String, _ post: Post) throws(SQLiteError) {
        try connection.withStatement(sql) { statement throws(SQLiteError) in
            try statement.bind(post.id, Self.text(post.title), Self.text(post.body))
            try statement.run()
        }
    }
}
