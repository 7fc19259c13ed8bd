import PostStore
import PostgresNIO

/// Posts as the rows of a `COPY … FROM STDIN` in PostgreSQL's text format: `id`, `user_id`, `title`, `body`,
/// `search_text`, tab-separated, one line each.
///
/// Title and body go as `bytea` in its escape format (printable ASCII as it is, every other byte as `\ooo`),
/// about the size of the text for most posts where hex would double it; `search_text` as text, the title and body
/// lowercased by Swift (as ``TextSearch`` lowercases) with NUL characters left out, which `text` cannot hold.
struct PostgresCopyRows {
    /// The columns, in the order each line gives them.
    static let columns = ["id", "user_id", "title", "body", "search_text"]

    /// How many bytes are gathered before they are sent.
    static let chunkSize = 256 * 1024

    private var bytes: [UInt8] = []

    init() {
        bytes.reserveCapacity(Self.chunkSize + 64 * 1024)
    }

    /// Whether enough is gathered to send.
    var isFull: Bool { bytes.count >= Self.chunkSize }

    /// Whether nothing is waiting to be sent.
    var isEmpty: Bool { bytes.isEmpty }

    /// Adds a post's line.
    mutating func append(_ post: Post) {
        appendNumber(post.id)
        bytes.append(UInt8(ascii: "\t"))
        appendNumber(post.userId)
        bytes.append(UInt8(ascii: "\t"))
        appendBytea(post.title)
        bytes.append(UInt8(ascii: "\t"))
        appendBytea(post.body)
        bytes.append(UInt8(ascii: "\t"))
        appendText(post.title.lowercased())
        appendText("\n")
        appendText(post.body.lowercased())
        bytes.append(UInt8(ascii: "\n"))
    }

    /// Hands what is gathered to the writer, and starts again.
    mutating func send(to writer: PostgresCopyFromWriter) async throws {
        guard !bytes.isEmpty else { return }
        let buffer = ByteBuffer(bytes: bytes)
        bytes.removeAll(keepingCapacity: true)
        try await writer.write(buffer)
    }

    private mutating func appendNumber(_ value: Int) {
        bytes.append(contentsOf: String(value).utf8)
    }

    /// A `bytea` value in escape format, escaped once more for the `COPY` text format.
    private mutating func appendBytea(_ text: String) {
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\\"):
                // bytea's `\\`, each backslash doubled again for COPY.
                bytes.append(contentsOf: [
                    UInt8(ascii: "\\"), UInt8(ascii: "\\"), UInt8(ascii: "\\"), UInt8(ascii: "\\"),
                ])
            case 0x20...0x7E:
                bytes.append(byte)
            default:
                // bytea's `\ooo`, its backslash doubled for COPY.
                bytes.append(contentsOf: [
                    UInt8(ascii: "\\"), UInt8(ascii: "\\"),
                    UInt8(ascii: "0") + byte >> 6, UInt8(ascii: "0") + (byte >> 3) & 7, UInt8(ascii: "0") + byte & 7,
                ])
            }
        }
    }

    /// A `text` value escaped for the `COPY` text format; NUL left out.
    private mutating func appendText(_ text: String) {
        for byte in text.utf8 {
            switch byte {
            case 0: continue
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case UInt8(ascii: "\t"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case UInt8(ascii: "\n"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case UInt8(ascii: "\r"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            default: bytes.append(byte)
            }
        }
    }
}
