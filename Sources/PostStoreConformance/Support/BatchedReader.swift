import PostStore

/// A reader that hands out posts in batches of `batchSize` and, with `failAfter`, throws once that many batches
/// were read.
struct BatchedReader: PostReader {
    var remaining: ArraySlice<Post>
    let batchSize: Int
    var failAfter: Int?

    mutating func nextBatch() throws -> [Post]? {
        if let failAfter {
            guard failAfter > 0 else {
                throw PostStoreError(.invalidData, "The post at index 7 is broken (an injected failure).")
            }
            self.failAfter = failAfter - 1
        }
        guard !remaining.isEmpty else { return nil }
        defer { remaining = remaining.dropFirst(batchSize) }
        return Array(remaining.prefix(batchSize))
    }

    /// A stream of `posts` in batches of `batchSize` that, with `failAfter`, fails after that many batches.
    static func stream(_ posts: [Post], batchSize: Int = 3, failAfter: Int? = nil) -> PostStream {
        PostStream { BatchedReader(remaining: posts[...], batchSize: batchSize, failAfter: failAfter) }
    }
}
