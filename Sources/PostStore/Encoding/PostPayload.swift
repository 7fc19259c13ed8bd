public import Foundation

/// Checks and decodes what a data service received: a JSON array of posts, or newline-delimited JSON (one post
/// per line).
///
/// Everything is checked before a single post is returned, so a sync never commits part of a bad payload: the
/// bytes must be UTF-8, the text JSON, the top level an array (or one object per line), every record a complete
/// post, and no id may appear twice. The first problem found is reported with the record's position and id, and
/// the field.
///
/// For example:
///
/// ```swift
/// let posts = try PostPayload.decode(Data(#"{"userId": 1, "id": 1, "title": "a", "body": "b"}"#.utf8))
/// ```
public enum PostPayload {
    /// Decodes a payload, choosing the format by its first character: `{` starts newline-delimited JSON,
    /// anything else must be a JSON array.
    ///
    /// - Parameter data: The payload's bytes; a leading UTF-8 byte-order mark is ignored.
    /// - Returns: The posts, in the payload's order.
    /// - Throws: ``PostStoreError/Code/invalidData`` naming the first problem.
    public static func decode(_ data: Data) throws(PostStoreError) -> [Post] {
        var data = data
        let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]
        let skipped = data.starts(with: byteOrderMark) ? byteOrderMark.count : 0
        data.removeFirst(skipped)
        try checkUTF8(data, offsetInPayload: skipped)
        let isLineDelimited = data.first(where: { !$0.isJSONWhitespace }) == UInt8(ascii: "{")
        if isLineDelimited { return try decodeLines(data) }
        let posts = try PostDecoding.decodeArray(from: data)
        try checkUniqueIds(posts) { "at index \($0)" }
        return posts
    }

    /// Refuses a post id that appears twice, naming both records.
    ///
    /// - Parameters:
    ///   - posts: The posts, in the payload's order.
    ///   - position: Names the position of the post at an index, for example "at index 7".
    /// - Throws: ``PostStoreError/Code/invalidData`` for the first repeated id.
    static func checkUniqueIds(_ posts: [Post], position: (Int) -> String) throws(PostStoreError) {
        var firstIndex = [Int: Int](minimumCapacity: posts.count)
        for (index, post) in posts.enumerated() {
            if let earlier = firstIndex.updateValue(index, forKey: post.id) {
                throw PostStoreError(
                    .invalidData,
                    "The post \(position(index)) repeats id \(post.id) of the post \(position(earlier)); ids must be "
                        + "unique."
                )
            }
        }
    }

    /// Refuses bytes that are not UTF-8, naming the first bad byte's offset in the payload as received.
    private static func checkUTF8(_ data: Data, offsetInPayload skipped: Int) throws(PostStoreError) {
        guard String(validating: data, as: UTF8.self) == nil else { return }
        var parser = Unicode.UTF8.ForwardParser()
        var bytes = data.makeIterator()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &bytes) {
            case .valid(let scalar):
                offset += scalar.count
            case .error:
                let byte = String(data[data.startIndex + offset], radix: 16, uppercase: true)
                throw PostStoreError(
                    .invalidData,
                    "The data is not valid UTF-8: the byte at offset \(skipped + offset) (0x\(byte)) starts no valid "
                        + "character."
                )
            case .emptyInput:
                return
            }
        }
    }

    /// Decodes newline-delimited JSON: one post per line, blank lines skipped, `\r\n` allowed.
    ///
    /// The lines are decoded together, each wrapped in its own array (`[[line 1],[line 2],…]`, one decoder call, not
    /// one per line), so a post split over two lines or two posts on one line cannot pass; only when that fails are
    /// they decoded one by one to name the bad line.
    private static func decodeLines(_ data: Data) throws(PostStoreError) -> [Post] {
        let bytes = [UInt8](data)
        // (line index, byte range) of every line that is not blank.
        var records: [(offset: Int, element: Range<Int>)] = []
        var joined: [UInt8] = [UInt8(ascii: "[")]
        joined.reserveCapacity(bytes.count + 2)
        var lineStart = 0
        var lineIndex = 0
        while lineStart <= bytes.count {
            let lineEnd = bytes[lineStart...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
            if !bytes[lineStart..<lineEnd].allSatisfy(\.isJSONWhitespace) {
                if !records.isEmpty { joined.append(UInt8(ascii: ",")) }
                joined.append(UInt8(ascii: "["))
                joined.append(contentsOf: bytes[lineStart..<lineEnd])
                joined.append(UInt8(ascii: "]"))
                records.append((lineIndex, lineStart..<lineEnd))
            }
            lineStart = lineEnd + 1
            lineIndex += 1
        }
        joined.append(UInt8(ascii: "]"))
        if records.allSatisfy({ isOneObject(bytes[$0.element]) }),
            let lines = try? JSONDecoder().decode([[Post]].self, from: Data(joined)),
            lines.count == records.count, lines.allSatisfy({ $0.count == 1 })
        {
            let posts = lines.map { $0[0] }
            let lineNumbers = records.map { $0.offset + 1 }
            try checkUniqueIds(posts) { "on line \(lineNumbers[$0])" }
            return posts
        }
        if let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] {
            // One JSON object for the whole payload: a wrapped document such as {"posts": [...]}, or one post
            // spread over several lines.
            let keys = object.keys.sorted().prefix(5).map { "\"\($0)\"" }.joined(separator: ", ")
            let found = object.isEmpty ? "an empty JSON object" : "one JSON object (with keys \(keys))"
            throw PostStoreError(
                .invalidData,
                "The data is \(found), not a JSON array of posts nor one post per line."
            )
        }
        for (lineIndex, line) in records {
            let record = Data("[".utf8) + bytes[line] + Data("]".utf8)
            do {
                let posts = try JSONDecoder().decode([Post].self, from: record)
                guard posts.count == 1 else {
                    throw PostStoreError(
                        .invalidData,
                        "Line \(lineIndex + 1) holds \(posts.count) values, not one post."
                    )
                }
            } catch let error as DecodingError {
                let message = PostDecoding.describe(error, in: record) { _ in "on line \(lineIndex + 1)" }
                    .replacingOccurrences(of: "The data is not", with: "Line \(lineIndex + 1) is not")
                throw PostStoreError(.invalidData, message, cause: error)
            } catch let error as PostStoreError {
                throw error
            } catch {
                throw PostStoreError(.invalidData, "Line \(lineIndex + 1) could not be decoded.", cause: error)
            }
        }
        throw PostStoreError(.invalidData, "The data is not newline-delimited JSON: one post per line.")
    }

    /// Whether a line holds exactly one JSON object: its braces and brackets balance, outside strings, only at its
    /// last non-blank byte. Only then can the lines be decoded together without one line's text closing another's.
    private static func isOneObject(_ line: ArraySlice<UInt8>) -> Bool {
        var depth = 0
        var inString = false
        var escaped = false
        var closed = false
        for byte in line {
            if closed {
                guard byte.isJSONWhitespace else { return false }
                continue
            }
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                guard depth > 0 else { return false }
                inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                guard depth > 0 || byte == UInt8(ascii: "{") else { return false }
                depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                guard depth >= 0 else { return false }
                closed = depth == 0
            default:
                guard depth > 0 || byte.isJSONWhitespace else { return false }
            }
        }
        return closed
    }
}
