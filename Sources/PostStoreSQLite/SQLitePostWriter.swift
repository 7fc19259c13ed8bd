import PostStore

/// Writes posts into the `posts` table and the search index one at a time, inside the caller's transaction: the
/// hot loop of every write, a sync of a million posts included.
///
/// Its statements are prepared once per connection and held for the whole loop, text is bound without copying,
/// and a stored post is compared with the incoming one byte for byte in SQLite's own row buffer, so an unchanged
/// post costs one indexed lookup and no allocation.
struct SQLitePostWriter {
    /// What an upsert did, or (when not writing) would do.
    enum Outcome {
        case inserted, updated, unchanged
    }

    /// What the table holds under an incoming post's id.
    private enum Stored {
        case missing, equal
        /// The stored post, when the caller keeps the search index.
        case different(Post?)
    }

    private let searchIndex: SQLiteSearchIndex?
    private let select: SQLiteStatement
    private let insert: SQLiteStatement
    private let update: SQLiteStatement

    /// - Parameters:
    ///   - connection: The connection, in a transaction.
    ///   - searchIndex: The index to keep in step with each write, or `nil` when the caller does not keep it or
    ///     rebuilds it after the loop.
    init(connection: SQLiteConnection, searchIndex: SQLiteSearchIndex?) throws(SQLiteError) {
        self.searchIndex = searchIndex
        select = try connection.cachedStatement("SELECT user_id, title, body FROM posts WHERE id = ?")
        insert = try connection.cachedStatement("INSERT INTO posts (id, user_id, title, body) VALUES (?, ?, ?, ?)")
        update = try connection.cachedStatement("UPDATE posts SET user_id = ?, title = ?, body = ? WHERE id = ?")
    }

    /// Inserts a post whose id the table does not hold.
    func insert(_ post: Post) throws {
        try Self.withText(of: post) { title, body throws(SQLiteError) in
            defer { insert.reset() }
            try insert.bind(post.id, at: 1)
            try insert.bind(post.userId, at: 2)
            try insert.bindWithoutCopying(title, at: 3)
            try insert.bindWithoutCopying(body, at: 4)
            try insert.run()
        }
        try searchIndex?.add(post)
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
            // The stored text is needed only to take it out of the search index.
            guard searchIndex != nil else { return .different(nil) }
            return .different(
                Post(userId: select.int(at: 0), id: post.id, title: select.text(at: 1), body: select.text(at: 2))
            )
        }
        switch stored {
        case .equal:
            return .unchanged
        case .missing:
            if writing { try insert(post) }
            return .inserted
        case .different(let stored):
            if writing { try replace(stored, with: post) }
            return .updated
        }
    }

    private func replace(_ stored: Post?, with post: Post) throws {
        try Self.withText(of: post) { title, body throws(SQLiteError) in
            defer { update.reset() }
            try update.bind(post.userId, at: 1)
            try update.bindWithoutCopying(title, at: 2)
            try update.bindWithoutCopying(body, at: 3)
            try update.bind(post.id, at: 4)
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
