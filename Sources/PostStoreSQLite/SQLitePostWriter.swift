import PostStore

/// Writes posts into the `posts` table and the search index one at a time, inside the caller's transaction: the
/// hot loop of every write, a sync of a million posts included.
///
/// Its statements are prepared once per connection and held for the whole loop, text is bound without copying,
/// and a stored post is compared with the incoming one byte for byte in SQLite's own row buffer, so an unchanged
/// post costs one indexed lookup and no allocation.
struct SQLitePostWriter {
    /// What an upsert did, or (when not writing) would do, and the revision of the version it overwrote: the
    /// replaced post's, or an inserted id's tombstone's.
    enum Outcome {
        case inserted(overwrote: Int?)
        case updated(overwrote: Int)
        case unchanged
    }

    /// What the table holds under an incoming post's id.
    private enum Stored {
        case missing, equal
        /// The stored post's revision, and the post itself when the caller keeps the search index.
        case different(revision: Int, Post?)
    }

    private let searchIndex: SQLiteSearchIndex?
    private let revision: Int
    private let select: SQLiteStatement
    private let insert: SQLiteStatement
    private let update: SQLiteStatement
    /// Takes an inserted id's tombstone, if any; `nil` when the store holds none.
    private let resurrect: SQLiteStatement?

    /// - Parameters:
    ///   - connection: The connection, in a transaction.
    ///   - searchIndex: The index to keep in step with each write, or `nil` when the caller does not keep it or
    ///     rebuilds it after the loop.
    ///   - revision: The revision this write records in the posts it writes.
    init(connection: SQLiteConnection, searchIndex: SQLiteSearchIndex?, revision: Int) throws(SQLiteError) {
        self.searchIndex = searchIndex
        self.revision = revision
        select = try connection.cachedStatement("SELECT user_id, title, body, revision FROM posts WHERE id = ?")
        insert = try connection.cachedStatement(
            "INSERT INTO posts (id, user_id, title, body, revision) VALUES (?, ?, ?, ?, ?)"
        )
        update = try connection.cachedStatement(
            "UPDATE posts SET user_id = ?, title = ?, body = ?, revision = ? WHERE id = ?"
        )
        let holdsTombstones = try connection.withStatement("SELECT EXISTS (SELECT 1 FROM post_tombstones)") {
            statement throws(SQLiteError) in
            _ = try statement.step()
            return statement.int(at: 0) == 1
        }
        resurrect =
            holdsTombstones
            ? try connection.cachedStatement("DELETE FROM post_tombstones WHERE id = ? RETURNING revision") : nil
    }

    /// Inserts a post whose id the table does not hold.
    ///
    /// - Returns: The revision of the id's tombstone, which the insert removes, if it had one.
    func insert(_ post: Post) throws -> Int? {
        try Self.withText(of: post) { title, body throws(SQLiteError) in
            defer { insert.reset() }
            try insert.bind(post.id, at: 1)
            try insert.bind(post.userId, at: 2)
            try insert.bindWithoutCopying(title, at: 3)
            try insert.bindWithoutCopying(body, at: 4)
            try insert.bind(revision, at: 5)
            try insert.run()
        }
        try searchIndex?.add(post)
        guard let resurrect else { return nil }
        defer { resurrect.reset() }
        try resurrect.bind(post.id, at: 1)
        guard try resurrect.step() else { return nil }
        let tombstone = resurrect.int(at: 0)
        // RETURNING rows are all computed by the first step; the statement still has to run to its end.
        while try resurrect.step() {}
        return tombstone
    }

    /// Inserts a new post, replaces a stored one that differs in any byte, and leaves an equal one alone.
    ///
    /// - Parameters:
    ///   - post: The post.
    ///   - writing: `false` for a dry run: only the outcome is worked out.
    /// - Returns: What was (or would be) done.
    func upsert(_ post: Post, writing: Bool) throws -> Outcome {
        let stored: Stored = try Self.withText(of: post) { title, body throws(SQLiteError) in
            defer { select.reset() }
            try select.bind(post.id, at: 1)
            guard try select.step() else { return .missing }
            if select.int(at: 0) == post.userId, select.textEquals(at: 1, title), select.textEquals(at: 2, body) {
                return .equal
            }
            let revision = select.int(at: 3)
            // The stored text is needed only to take it out of the search index.
            guard searchIndex != nil else { return .different(revision: revision, nil) }
            return .different(
                revision: revision,
                Post(userId: select.int(at: 0), id: post.id, title: select.text(at: 1), body: select.text(at: 2))
            )
        }
        switch stored {
        case .equal:
            return .unchanged
        case .missing:
            return .inserted(overwrote: writing ? try insert(post) : nil)
        case .different(let revision, let stored):
            if writing { try replace(stored, with: post) }
            return .updated(overwrote: revision)
        }
    }

    private func replace(_ stored: Post?, with post: Post) throws {
        try Self.withText(of: post) { title, body throws(SQLiteError) in
            defer { update.reset() }
            try update.bind(post.userId, at: 1)
            try update.bindWithoutCopying(title, at: 2)
            try update.bindWithoutCopying(body, at: 3)
            try update.bind(revision, at: 4)
            try update.bind(post.id, at: 5)
            try update.run()
        }
        if let searchIndex, let stored,
            !stored.title.utf8.elementsEqual(post.title.utf8) || !stored.body.utf8.elementsEqual(post.body.utf8)
        {
            try searchIndex.remove(stored)
            try searchIndex.add(post)
        }
    }

    /// Runs `body` with the post's title and body as UTF-8 bytes, without copying native strings.
    private static func withText<Result>(
        of post: Post,
        _ body: (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>) throws(SQLiteError) -> Result
    ) throws -> Result {
        var title = post.title
        var text = post.body
        return try title.withUTF8 { title in
            try text.withUTF8 { text in try body(title, text) }
        }
    }
}
