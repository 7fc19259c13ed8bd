import PostStore

/// A reader that hands out posts in batches of `batchSize` (the core's `ArrayPostReader`) and, with `failAfter`,
/// throws once that many batches were read.
struct BatchedReader: PostReader {
    var batches: ArrayPostReader
    var failAfter: Int?

    mutating func nextBatch() throws -> [Post]? {
        if let failAfter {
            guard failAfter > 0 else {
                throw PostStoreError(.invalidData, "The post at index 7 is broken (an injected failure).")
            }
            self.failAfter = failAfter - 1
        }
        return batches.nextBatch()
    }

    /// A stream of `posts` in batches of `batchSize` that, with `failAfter`, fails after that many batches.
    static func stream(_ posts: [Post], batchSize: Int = 3, failAfter: Int? = nil) -> PostStream {
        PostStream { BatchedReader(batches: ArrayPostReader(posts, batchSize: batchSize), failAfter: failAfter) }
    }
}
