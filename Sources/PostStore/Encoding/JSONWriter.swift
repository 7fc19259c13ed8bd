/// Writes JSON text into a byte buffer, with keys in the order they are written.
///
/// Foundation's `JSONEncoder` orders keys by hashing on Linux (or alphabetically with `.sortedKeys`); PostStore's
/// files and output keep JSONPlaceholder's order `userId, id, title, body`, and writing bytes directly is also
/// several times faster.
package struct JSONWriter {
    /// An empty buffer.
    package init() {}

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// The JSON text so far, UTF-8.
    package private(set) var bytes: [UInt8] = []

    /// Appends raw, already valid JSON text.
    package mutating func raw(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    /// Appends an integer.
    package mutating func integer(_ value: some BinaryInteger) {
        bytes.append(contentsOf: String(value).utf8)
    }

    /// Appends a string literal with every character JSON requires escaped; all other text is kept as UTF-8.
    package mutating func string(_ value: String) {
        string(utf8: value.utf8)
    }

    /// Appends a string literal of text given as UTF-8 bytes, escaped as ``string(_:)`` escapes it.
    package mutating func string(utf8 value: some Sequence<UInt8>) {
        bytes.append(UInt8(ascii: "\""))
        for byte in value {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case UInt8(ascii: "\n"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case UInt8(ascii: "\r"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case UInt8(ascii: "\t"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0..<0x20:
                bytes.append(contentsOf: Array("\\u00".utf8))
                bytes.append(Self.hexDigits[Int(byte >> 4)])
                bytes.append(Self.hexDigits[Int(byte & 0xF)])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Appends `"key": ` (the key escaped).
    package mutating func key(_ key: String) {
        string(key)
        raw(": ")
    }

    /// Appends a post as one object, keys in JSONPlaceholder's order.
    ///
    /// - Parameters:
    ///   - post: The post.
    ///   - indent: The indentation of the object's lines; `nil` writes it on one line.
    package mutating func post(_ post: Post, indent: String? = nil) {
        self.post(userId: post.userId, id: post.id, title: post.title.utf8, body: post.body.utf8, indent: indent)
    }

    /// Appends a post given by its fields, its text as UTF-8 bytes, as ``post(_:indent:)`` writes it.
    ///
    /// - Parameters:
    ///   - userId: The post's user.
    ///   - id: The post's id.
    ///   - title: The title's UTF-8 bytes.
    ///   - body: The body's UTF-8 bytes.
    ///   - indent: The indentation of the object's lines; `nil` writes it on one line.
    package mutating func post(
        userId: Int,
        id: Int,
        title: some Sequence<UInt8>,
        body: some Sequence<UInt8>,
        indent: String? = nil
    ) {
        let open = indent.map { "{\n\($0)  " } ?? "{"
        let separator = indent.map { ",\n\($0)  " } ?? ", "
        let close = indent.map { "\n\($0)}" } ?? "}"
        raw(open)
        key("userId")
        integer(userId)
        raw(separator)
        key("id")
        integer(id)
        raw(separator)
        key("title")
        string(utf8: title)
        raw(separator)
        key("body")
        string(utf8: body)
        raw(close)
    }
}
