/// Passes another reader's batches on and, when it ends, says how many posts it read: how a streamed sync reports
/// progress it can only know at the end.
struct CountingPostReader: PostReader {
    private var base: any PostReader
    private let onEnd: (Int) -> Void
    private var count = 0
    private var ended = false

    /// - Parameters:
    ///   - base: The reader to pass on.
    ///   - onEnd: Called once with the number of posts, when `base` ends.
    init(_ base: any PostReader, onEnd: @escaping (Int) -> Void) {
        self.base = base
        self.onEnd = onEnd
    }

    mutating func nextBatch() throws -> [Post]? {
        guard let batch = try base.nextBatch() else {
            if !ended { onEnd(count) }
            ended = true
            return nil
        }
        count += batch.count
        return batch
    }
}
