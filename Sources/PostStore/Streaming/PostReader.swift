/// Posts handed over a batch at a time, so a payload too large to hold at once can be written as it is read.
///
/// A store pulls batches from a reader inside one write (see ``PostStoreProtocol/apply(_:streaming:)``); a reader
/// that finds a problem part-way throws, and the store writes nothing. ``PostStream`` makes readers;
/// ``ArrayPostReader`` reads posts already in memory.
///
/// For example, a reader of posts made on the fly:
///
/// ```swift
/// struct CountingReader: PostReader {
///     var next = 1
///     mutating func nextBatch() throws -> [Post]? {
///         guard next <= 3 else { return nil }
///         defer { next += 1 }
///         return [Post(userId: 1, id: next, title: "Post \(next)", body: "")]
///     }
/// }
/// ```
public protocol PostReader {
    /// Reads the next batch of posts.
    ///
    /// - Returns: The next posts (possibly none), or `nil` once every post was read.
    /// - Throws: ``PostStoreError``, for example `invalidData` naming a bad record; a caller does not read on
    ///   after an error.
    mutating func nextBatch() throws -> [Post]?
}

/// Reads posts held in memory, in batches of a chosen size.
public struct ArrayPostReader: PostReader {
    private let posts: [Post]
    private let batchSize: Int
    private var start = 0

    /// Creates a reader.
    ///
    /// - Parameters:
    ///   - posts: The posts, in order.
    ///   - batchSize: How many posts each batch holds at most (at least 1).
    public init(_ posts: [Post], batchSize: Int = 4096) {
        self.posts = posts
        self.batchSize = max(1, batchSize)
    }

    public mutating func nextBatch() -> [Post]? {
        guard start < posts.count else { return nil }
        let end = min(start + batchSize, posts.count)
        defer { start = end }
        return start == 0 && end == posts.count ? posts : Array(posts[start..<end])
    }
}

extension PostReader {
    /// Reads every remaining post into one array.
    ///
    /// - Returns: The posts, in order.
    /// - Throws: What ``nextBatch()`` throws.
    public mutating func readAll() throws -> [Post] {
        var posts: [Post] = []
        while let batch = try nextBatch() {
            posts += batch
        }
        return posts
    }
}
