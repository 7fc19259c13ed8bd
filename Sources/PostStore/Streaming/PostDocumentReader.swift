/// Reads a JSON document whose top level is an object, such as a JSON store's file, a piece at a time: the array of
/// posts under one key is read post by post and handed out in batches, every other value whole, as its JSON text.
///
/// Memory holds one piece of the file (a value larger than a piece makes it grow) and one batch, never the whole
/// document: a JSON store of 100,000 posts read into a ``PostTable`` this way peaks at the
/// table's size and little more, where decoding the whole file with `JSONDecoder` held the file, the decoder's map
/// of it and every post as strings at once. The posts are checked as ``PostJSON/decode(_:maximumPostBytes:)``
/// checks a payload (with no limit to a post's size) except for repeated ids, which the caller finds as it keeps the
/// posts; the rest of the document must be valid JSON with no key twice at the top level.
///
/// For example, a document `{"format": "x", "posts": [ … ]}` gives `.value(key: "format", json: "\"x\"")`,
/// `.postsFollow`, then `.posts(batch)` until the array ends, then `nil`.
package final class PostDocumentReader {
    /// A part of the document, in the document's order.
    package enum Part {
        /// A top-level key other than the posts' key, with its value's JSON text.
        case value(key: String, json: [UInt8])
        /// The posts' key: the parts up to the next value or the end are its posts.
        case postsFollow
        /// The next posts of the array, in its order; at least one.
        case posts([Post])
    }

    private enum State {
        case start, firstKey, key
        case value(key: String)
        case afterValue, posts, end, finished
    }

    private let postsKey: String
    private let batchSize: Int
    private var window: FileWindow
    private var state = State.start
    private var parser = PostPayloadParser(isEmbedded: true)
    private var keys = Set<String>()

    /// Creates a reader.
    ///
    /// - Parameters:
    ///   - file: The document.
    ///   - postsKey: The top-level key whose value is the array of posts.
    ///   - pieceSize: How many bytes to read at a time.
    ///   - batchSize: How many posts a batch holds at most.
    package init(file: any ReadableFile, postsKey: String, pieceSize: Int = 1 << 20, batchSize: Int = 4096) {
        self.postsKey = postsKey
        self.batchSize = batchSize
        window = FileWindow(file: file, pieceSize: pieceSize)
    }

    /// Reads the next part of the document.
    ///
    /// - Returns: The part, or `nil` after the end of the document.
    /// - Throws: ``PostStoreError/Code/invalidData`` naming what is wrong with the document (its message is a
    ///   sentence: "The data is not valid JSON: … (byte offset 12)."), or what the file's reads throw.
    package func next() throws -> Part? {
        while true {
            if case .posts = state {
                if let posts = try nextPosts() { return .posts(posts) }
                continue
            }
            var scanner = PostJSONScanner(
                bytes: window.bytes,
                isComplete: window.isComplete,
                allowsLineFeeds: true,
                position: window.start
            )
            do throws(PostJSONScanner.Failure) {
                let part = try step(&scanner)
                window.consume(upTo: scanner.position)
                if let part { return part }
                if case .finished = state { return nil }
            } catch .needsMoreBytes {
                // A complete window is always read to its end or to an error.
                precondition(!window.isComplete, "The document reader stopped inside a complete document.")
                try window.readMore()
            } catch {
                throw Self.error(error, in: window.bytes, offset: window.offset)
            }
        }
    }

    /// Reads one step of the document from the scanner's position: it either completes, moving the scanner past
    /// what it read, or throws `needsMoreBytes`, to be taken again from the same place with more bytes.
    private func step(_ scanner: inout PostJSONScanner) throws(PostJSONScanner.Failure) -> Part? {
        switch state {
        case .start:
            if window.offset + scanner.position == 0 {
                if scanner.bytes.count < 3, !window.isComplete { throw .needsMoreBytes }
                if scanner.bytes.starts(with: [0xEF, 0xBB, 0xBF]) { scanner.position = 3 }
            }
            try scanner.skipWhitespace()
            guard let first = try scanner.peek() else { throw .notPosts("The document is empty.") }
            guard first == UInt8(ascii: "{") else {
                throw .notPosts("The data must be an object, found \(try scanner.skipValue(depth: 0).described).")
            }
            scanner.position += 1
            state = .firstKey
        case .firstKey, .key:
            try scanner.skipWhitespace()
            if case .firstKey = state, try scanner.peek() == UInt8(ascii: "}") {
                scanner.position += 1
                state = .end
                return nil
            }
            try scanner.expect(UInt8(ascii: "\""), "a field name in quotes")
            let key = try scanner.readString()
            try scanner.skipWhitespace()
            try scanner.expect(UInt8(ascii: ":"), "':' after a field name")
            guard keys.insert(key).inserted else { throw .notPosts("The key \"\(key)\" appears twice.") }
            if key == postsKey {
                state = .posts
                return .postsFollow
            }
            state = .value(key: key)
        case .value(let key):
            try scanner.skipWhitespace()
            let start = scanner.position
            _ = try scanner.skipValue(depth: 1)
            state = .afterValue
            return .value(key: key, json: Array(scanner.bytes[start..<scanner.position]))
        case .afterValue:
            try scanner.skipWhitespace()
            guard try scanner.peek() != UInt8(ascii: ",") else {
                scanner.position += 1
                state = .key
                return nil
            }
            try scanner.expect(UInt8(ascii: "}"), "',' or '}' after a value")
            state = .end
        case .end:
            try scanner.skipWhitespace()
            guard try scanner.peek() == nil else { throw scanner.unexpected("nothing after the closing '}'") }
            state = .finished
        case .posts, .finished:
            break
        }
        return nil
    }

    /// Reads posts of the array until a batch is full or the array ends; `nil` when it ended with no post left.
    private func nextPosts() throws -> [Post]? {
        var posts: [Post] = []
        try parser.read(from: &window, into: &posts, limit: batchSize)
        if parser.isFinished { state = .afterValue }
        return posts.isEmpty ? nil : posts
    }

    /// A scanner's failure as the payload parser reports it.
    private static func error(
        _ failure: PostJSONScanner.Failure,
        in bytes: UnsafeBufferPointer<UInt8>,
        offset: Int
    ) -> PostStoreError {
        switch failure {
        case .syntax(let problem, let position):
            PostStoreError(.invalidData, "The data is not valid JSON: \(problem) (byte offset \(offset + position)).")
        case .invalidUTF8(let position):
            PostStoreError(
                .invalidData,
                "The data is not valid UTF-8: the byte 0x\(String(bytes[position], radix: 16, uppercase: true)) at "
                    + "byte offset \(offset + position) starts no valid character."
            )
        case .notPosts(let message):
            PostStoreError(.invalidData, message)
        case .needsMoreBytes:
            preconditionFailure("A step that needs more bytes is taken again.")
        }
    }
}
