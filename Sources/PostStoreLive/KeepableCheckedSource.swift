import PostStore

/// A source whose posts are checked, as they are read, against what a store's engine keeps
/// (`StoreEngine.checkKeepable`): a dry run into a store that does not exist yet previews against an empty store in
/// memory, which keeps anything, so the source is checked as the new store's first write would check it.
struct KeepableCheckedSource: PostDataService {
    /// The source.
    let base: any PostDataService
    /// Throws for a post the store would refuse, given its place among the posts.
    let check: @Sendable (Post, Int) throws -> Void

    var source: String { base.source }

    func streamPosts(_ request: PostFetchRequest) async throws -> PostStreamResult {
        switch try await base.streamPosts(request) {
        case .posts(let stream, let etag, let pages):
            let check = self.check
            return .posts(
                PostStream { CheckedReader(base: try stream.makeReader(), check: check) },
                etag: etag,
                pages: pages
            )
        case .notModified:
            return .notModified
        }
    }

    /// Reads the base reader's batches, checking each post.
    private struct CheckedReader: PostReader {
        var base: any PostReader
        let check: @Sendable (Post, Int) throws -> Void
        /// How many posts were read before this batch.
        var read = 0

        mutating func nextBatch() throws -> [Post]? {
            guard let batch = try base.nextBatch() else { return nil }
            for (offset, post) in batch.enumerated() { try check(post, read + offset) }
            read += batch.count
            return batch
        }
    }
}
