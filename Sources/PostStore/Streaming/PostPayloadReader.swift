/// Reads a payload of posts (see ``PostJSON``) from a file a piece at a time, handing out batches of posts:
/// memory for one piece, one batch and the list of ids read (to refuse a repeated one), whatever the file's size.
///
/// Every check of ``PostJSON/decode(_:maximumPostBytes:)`` applies, ids repeated anywhere in the payload included; a problem
/// found part-way is thrown from the batch that reaches it.
final class PostPayloadReader: PostReader {
    private let file: any ReadableFile
    private let batchSize: Int
    private let describe: (PostStoreError) -> PostStoreError
    private var parser: PostPayloadParser
    private var buffer: UnsafeMutableBufferPointer<UInt8>
    /// The unread bytes are `buffer[start..<end]`.
    private var start = 0
    private var end = 0
    /// The payload offset of `buffer[0]`.
    private var bufferOffset = 0
    private var fileEnded = false

    /// Creates a reader.
    ///
    /// - Parameters:
    ///   - file: The payload.
    ///   - pieceSize: How many bytes to read at a time; a record longer than that makes the buffer grow.
    ///   - batchSize: How many posts a batch holds at most.
    ///   - maximumPostBytes: The most bytes of JSON one post may take: the buffer never grows much past it.
    ///   - describe: Rewrites a problem's error, for example to name the file.
    init(
        file: any ReadableFile,
        pieceSize: Int = 1 << 20,
        batchSize: Int = 4096,
        maximumPostBytes: Int = PayloadLimits.defaultMaximumPostBytes,
        describe: @escaping (PostStoreError) -> PostStoreError = { $0 }
    ) {
        self.file = file
        self.batchSize = batchSize
        parser = PostPayloadParser(maximumPostBytes: maximumPostBytes)
        self.describe = describe
        buffer = .allocate(capacity: max(pieceSize, 16))
    }

    deinit {
        buffer.deallocate()
    }

    /// How many bytes of the payload the posts read so far took (their JSON and what came before it).
    var bytesRead: Int { bufferOffset + start }

    /// How many bytes the payload holds, when its file says.
    var totalBytes: Int? { file.size }

    func nextBatch() throws -> [Post]? {
        guard !parser.isFinished else { return nil }
        var posts: [Post] = []
        posts.reserveCapacity(batchSize)
        while posts.count < batchSize, !parser.isFinished {
            let window = UnsafeBufferPointer(rebasing: buffer[..<end])
            let stopped: Int
            do {
                stopped = try parser.parse(
                    window,
                    from: start,
                    windowOffset: bufferOffset,
                    isComplete: fileEnded,
                    into: &posts,
                    limit: batchSize
                )
            } catch {
                throw describe(error)
            }
            start = stopped
            if parser.isFinished || posts.count >= batchSize { break }
            // A complete window is always read to its end or to an error.
            precondition(!fileEnded, "The payload parser stopped inside a complete payload.")
            try readMore()
        }
        return posts.isEmpty && parser.isFinished ? nil : posts
    }

    /// Keeps the unread bytes, moved to the buffer's start, and reads more after them (growing the buffer when the
    /// unread bytes fill it: one record longer than a piece).
    private func readMore() throws {
        if start > 0 {
            // `copyMemory` is `memmove`: the ranges may overlap.
            UnsafeMutableRawPointer(buffer.baseAddress!).copyMemory(
                from: buffer.baseAddress! + start,
                byteCount: end - start
            )
            bufferOffset += start
            end -= start
            start = 0
        }
        if end == buffer.count {
            let larger = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: buffer.count * 2)
            larger.baseAddress!.initialize(from: buffer.baseAddress!, count: end)
            buffer.deallocate()
            buffer = larger
        }
        let count = try file.read(
            into: UnsafeMutableRawBufferPointer(UnsafeMutableBufferPointer(rebasing: buffer[end...]))
        )
        if count == 0 { fileEnded = true }
        end += count
    }
}
