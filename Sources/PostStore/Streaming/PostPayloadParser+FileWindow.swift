extension PostPayloadParser {
    /// Reads posts from a window over a file, reading more of the file as the parser needs it, until `posts` holds
    /// `limit` or the payload ends.
    ///
    /// - Parameters:
    ///   - window: The window; what the parser reads is consumed from it.
    ///   - posts: Where the posts go.
    ///   - limit: Stops once `posts` holds this many.
    ///   - describe: Rewrites the parser's errors (not the file's), for example to name the file.
    /// - Throws: The parser's errors, described, and what the file's reads throw.
    mutating func read(
        from window: inout FileWindow,
        into posts: inout [Post],
        limit: Int,
        describe: (PostStoreError) -> PostStoreError = { $0 }
    ) throws {
        while posts.count < limit, !isFinished {
            let stopped: Int
            do {
                stopped = try parse(
                    window.bytes,
                    from: window.start,
                    windowOffset: window.offset,
                    isComplete: window.isComplete,
                    into: &posts,
                    limit: limit
                )
            } catch {
                throw describe(error)
            }
            window.consume(upTo: stopped)
            if isFinished || posts.count >= limit { break }
            // A complete window is always read to its end or to an error.
            precondition(!window.isComplete, "The payload parser stopped inside a complete payload.")
            try window.readMore()
        }
    }
}
