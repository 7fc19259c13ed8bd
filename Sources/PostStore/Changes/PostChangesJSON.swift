package import Foundation

/// The JSON of one answer of a changes feed: what `poststore serve` sends from `GET /posts/_changes` and the HTTP
/// data service reads back (openapi.yaml's `Changes` schema).
///
/// ```json
/// {
///   "since": "3f1c09a2b7d4e655-40",
///   "next": "3f1c09a2b7d4e655-42",
///   "caughtUp": true,
///   "deleted": [7],
///   "posts": [
///     { "userId": 1, "id": 2, "title": "…", "body": "…" }
///   ]
/// }
/// ```
///
/// `since` is the token asked from (`null` for a whole copy), `next` the token the changes lead to, `caughtUp`
/// whether that is the store's newest state. The posts come last, in ``PostJSON``'s shape, so that the small
/// fields come first for a reader. A reader skips keys it does not know.
package enum PostChangesJSON {
    /// Writes an answer.
    ///
    /// - Parameters:
    ///   - changes: The answer.
    ///   - since: The token it answers, `nil` for a whole copy.
    /// - Returns: UTF-8 JSON.
    package static func encode(_ changes: PostChanges, since: ChangeToken?) -> [UInt8] {
        var writer = JSONWriter()
        writer.raw("{\n  ")
        writer.key("since")
        if let since { writer.string(since.description) } else { writer.raw("null") }
        writer.raw(",\n  ")
        writer.key("next")
        writer.string(changes.next.description)
        writer.raw(",\n  ")
        writer.key("caughtUp")
        writer.raw(changes.isCaughtUp ? "true" : "false")
        writer.raw(",\n  ")
        writer.key("deleted")
        writer.raw("[" + changes.deletedIds.map(String.init).joined(separator: ", ") + "]")
        writer.raw(",\n  ")
        writer.key("posts")
        writer.raw("[")
        for (index, post) in changes.posts.enumerated() {
            writer.raw(index == 0 ? "\n    " : ",\n    ")
            writer.post(post, indent: "    ")
        }
        writer.raw(changes.posts.isEmpty ? "]\n}\n" : "\n  ]\n}\n")
        return writer.bytes
    }

    /// Reads an answer, checking that it is whole and agrees with itself: every key of the format, tokens that are
    /// tokens, posts as ``PostJSON/decode(_:maximumPostBytes:)`` checks them, deletions that are distinct ids and
    /// name no post of the answer, and an answer short of the newest state that holds changes.
    ///
    /// - Parameters:
    ///   - data: The answer's bytes.
    ///   - maximumPostBytes: The most bytes of JSON one post may take.
    /// - Returns: The token it answers (`nil` for a whole copy) and the changes.
    /// - Throws: ``PostStoreError/Code/invalidData`` naming the first problem.
    package static func decode(
        _ data: Data,
        maximumPostBytes: Int = PayloadLimits.defaultMaximumPostBytes
    ) throws(PostStoreError) -> (since: ChangeToken?, changes: PostChanges) {
        let values = try topLevelValues(of: data)
        func value<Value: Decodable>(_ key: String, as type: Value.Type) throws(PostStoreError) -> Value {
            guard let range = values[key] else { throw invalid("it has no \"\(key)\"") }
            do {
                return try JSONDecoder().decode(type, from: data[range])
            } catch {
                throw invalid("\"\(key)\" is not \(Self.expected[key] ?? "what the format says")")
            }
        }
        func token(_ key: String) throws(PostStoreError) -> ChangeToken? {
            guard let text = try value(key, as: String?.self) else { return nil }
            guard let token = ChangeToken(text) else { throw invalid("\"\(key)\" is not a change token: \(text)") }
            return token
        }
        let since = try token("since")
        guard let next = try token("next") else { throw invalid("\"next\" is null") }
        let isCaughtUp = try value("caughtUp", as: Bool.self)
        let deleted = try value("deleted", as: [Int].self)
        guard let postsRange = values["posts"] else { throw invalid("it has no \"posts\"") }
        let posts: [Post]
        do {
            posts = try PostJSON.decode(data[postsRange], maximumPostBytes: maximumPostBytes)
        } catch {
            throw invalid("its posts: \(error.message)")
        }
        let deletedSet = Set(deleted)
        guard deletedSet.count == deleted.count else { throw invalid("\"deleted\" names an id twice") }
        if let both = posts.first(where: { deletedSet.contains($0.id) }) {
            throw invalid("post \(both.id) is both written and deleted")
        }
        guard isCaughtUp || !posts.isEmpty || !deleted.isEmpty else {
            throw invalid("it holds no change and is not caught up, so asking again would never end")
        }
        return (since, PostChanges(posts: posts, deletedIds: deleted, next: next, isCaughtUp: isCaughtUp))
    }

    /// What each key holds, for messages.
    private static let expected = [
        "since": "a change token or null", "next": "a change token", "caughtUp": "true or false",
        "deleted": "an array of post ids",
    ]

    /// The byte range of each key's value in the top-level object.
    private static func topLevelValues(of data: Data) throws(PostStoreError) -> [String: Range<Int>] {
        let found = data.withUnsafeBytes {
            (raw: UnsafeRawBufferPointer) -> Result<[String: Range<Int>], PostStoreError> in
            var scanner = PostJSONScanner(
                bytes: raw.bindMemory(to: UInt8.self),
                isComplete: true,
                allowsLineFeeds: true,
                position: 0
            )
            var values: [String: Range<Int>] = [:]
            do throws(PostJSONScanner.Failure) {
                try scanner.skipWhitespace()
                try scanner.expect(UInt8(ascii: "{"), "an object")
                try scanner.skipWhitespace()
                if try scanner.peek() == UInt8(ascii: "}") { return .success(values) }
                while true {
                    try scanner.expect(UInt8(ascii: "\""), "a key in quotes")
                    let key = try scanner.readString()
                    try scanner.skipWhitespace()
                    try scanner.expect(UInt8(ascii: ":"), "':' after a key")
                    try scanner.skipWhitespace()
                    let start = scanner.position
                    _ = try scanner.skipValue(depth: 1)
                    guard values.updateValue(start..<scanner.position, forKey: key) == nil else {
                        return .failure(invalid("the key \"\(key)\" appears twice"))
                    }
                    try scanner.skipWhitespace()
                    if try scanner.peek() == UInt8(ascii: ",") {
                        scanner.position += 1
                        try scanner.skipWhitespace()
                        continue
                    }
                    try scanner.expect(UInt8(ascii: "}"), "',' or '}'")
                    try scanner.skipWhitespace()
                    guard scanner.position == raw.count else { return .failure(invalid("more follows the object")) }
                    return .success(values)
                }
            } catch {
                switch error {
                case .syntax(let problem, let offset): return .failure(invalid("\(problem) at byte \(offset)"))
                case .invalidUTF8(let offset): return .failure(invalid("it is not UTF-8 at byte \(offset)"))
                case .notPosts(let message): return .failure(invalid(message))
                case .needsMoreBytes: return .failure(invalid("it ends early"))
                }
            }
        }
        return try found.get()
    }

    private static func invalid(_ problem: String) -> PostStoreError {
        PostStoreError(.invalidData, "The changes answer is not one this client can use: \(problem).")
    }
}
