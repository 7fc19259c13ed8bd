/// A window over a file read a piece at a time, for a parser that reads what lies wholly in the window and says
/// where it stopped: the bytes from there on are kept, moved to the buffer's start, when more are read, and the
/// buffer doubles when they fill it (one value longer than a piece).
struct FileWindow: ~Copyable {
    private let file: any ReadableFile
    private var buffer: UnsafeMutableBufferPointer<UInt8>
    /// The first byte not read yet, in ``bytes``.
    private(set) var start = 0
    /// How many bytes of the buffer hold the file's.
    private var end = 0
    /// The file offset of ``bytes``' first byte.
    private(set) var offset = 0
    /// Whether the window reaches the end of the file.
    private(set) var isComplete = false

    /// A window over `file`, empty until ``readMore()``.
    ///
    /// - Parameters:
    ///   - file: The file.
    ///   - pieceSize: How many bytes to read at a time.
    init(file: any ReadableFile, pieceSize: Int) {
        self.file = file
        buffer = .allocate(capacity: max(pieceSize, 16))
    }

    deinit {
        buffer.deallocate()
    }

    /// The bytes in the window, read or not; valid until the next ``readMore()``.
    var bytes: UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: buffer[..<end])
    }

    /// How many bytes of the file come before the first one not read yet.
    var bytesRead: Int { offset + start }

    /// How many bytes the file holds, when it says.
    var fileSize: Int? { file.size }

    /// Marks the bytes before `position` (in ``bytes``) read.
    mutating func consume(upTo position: Int) {
        start = position
    }

    /// Keeps the unread bytes, moved to the buffer's start, and reads more after them, growing the buffer when the
    /// unread bytes fill it; at the end of the file the window becomes complete.
    ///
    /// - Throws: What the file's reads throw.
    mutating func readMore() throws {
        if start > 0 {
            // `copyMemory` is `memmove`: the ranges may overlap.
            UnsafeMutableRawPointer(buffer.baseAddress!).copyMemory(
                from: buffer.baseAddress! + start,
                byteCount: end - start
            )
            offset += start
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
        if count == 0 { isComplete = true }
        end += count
    }
}
