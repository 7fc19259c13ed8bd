import Foundation
import PostStore

/// The posts of a JSON file as the CSV that the anchors `\copy`: id, user id, title, body, and the text PostStore
/// searches (title and body lowercased by Swift, joined by a newline), so the anchor's table and indexes hold the
/// same data as the store's.
enum PostgresAnchorFile {
    static func write(from jsonPath: String, to csvPath: String) throws {
        let posts = try PostJSON.decode(Data(contentsOf: URL(fileURLWithPath: jsonPath)))
        guard FileManager.default.createFile(atPath: csvPath, contents: nil),
            let handle = FileHandle(forWritingAtPath: csvPath)
        else { throw BenchmarkError("cannot write \(csvPath)") }
        defer { try? handle.close() }
        var buffer: [UInt8] = []
        buffer.reserveCapacity(1 << 21)
        for post in posts {
            buffer += "\(post.id),\(post.userId),".utf8
            for (index, text) in [post.title, post.body, post.title.lowercased() + "\n" + post.body.lowercased()]
                .enumerated()
            {
                if index > 0 { buffer.append(UInt8(ascii: ",")) }
                appendQuoted(text, to: &buffer)
            }
            buffer.append(UInt8(ascii: "\n"))
            if buffer.count >= 1 << 20 {
                try handle.write(contentsOf: buffer)
                buffer.removeAll(keepingCapacity: true)
            }
        }
        try handle.write(contentsOf: buffer)
    }

    /// A CSV field in double quotes, inner quotes doubled.
    private static func appendQuoted(_ text: String, to buffer: inout [UInt8]) {
        buffer.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            if byte == UInt8(ascii: "\"") { buffer.append(byte) }
            buffer.append(byte)
        }
        buffer.append(UInt8(ascii: "\""))
    }
}
