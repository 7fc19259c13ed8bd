/// Reads a payload of posts (see ``PostJSON``) from a file a piece at a time, handing out batches of posts:
/// memory for one piece, one batch and the list of ids read (to refuse a repeated one), whatever the file's size.
///
/// Every check of ``PostJSON/decode(_:maximumPostBytes:)`` applies, ids repeated anywhere in the payload included; a problem
/// found part-way is thrown from the batch that reaches it.
final class PostPayloadReader: PostReader {
    private let batchSize: Int
    private let describe: (PostStoreError) -> PostStoreError
    private var parser: PostPayloadParser
    private var window: FileWindow

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
        self.batchSize = batchSize
        parser = PostPayloadParser(maximumPostBytes: maximumPostBytes)
        self.describe = describe
        window = FileWindow(file: file, pieceSize: pieceSize)
    }

    /// How many bytes of the payload the posts read so far took (their JSON and what came before it).
    var bytesRead: Int { window.bytesRead }

    /// How many bytes the payload holds, when its file says.
    var totalBytes: Int? { window.fileSize }

    func nextBatch() throws -> [Post]? {
        guard !parser.isFinished else { return nil }
        var posts: [Post] = []
        posts.reserveCapacity(batchSize)
        try parser.read(from: &window, into: &posts, limit: batchSize, describe: describe)
        return posts.isEmpty && parser.isFinished ? nil : posts
    }
}
