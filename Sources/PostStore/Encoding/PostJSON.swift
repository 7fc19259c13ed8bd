public import Foundation

/// The JSON format of posts, both ways: PostStore's one entry point for reading and writing it.
///
/// A payload is a JSON array of posts, such as JSONPlaceholder's `/posts` answer, or newline-delimited JSON (one
/// post per line); a post is an object with the keys `userId`, `id`, `title` and `body`.
///
/// ``decode(_:maximumPostBytes:)`` checks everything before a single post is returned, so a sync never commits part
/// of a bad payload: the bytes must be UTF-8, the text JSON (RFC 8259, strictly), the top level an array (or one
/// object per line), every record a complete post, and no id may appear twice. The first problem found is reported
/// with the record's position and id, and the field, or the byte offset where the JSON breaks — for example
/// `The post at index 0 (id 7): field "title" must be a string, found a number.`
///
/// The decoder reads the bytes directly (several times faster than `JSONDecoder`, see
/// Benchmarks/README.md), and accepts what `JSONDecoder` accepts for ``Post`` — unknown keys skipped, `1.0` or `1e2` for
/// a whole number — except where Foundation is lenient about JSON itself (a trailing comma, an invalid escape in an
/// ignored field) or a record is ambiguous (one of the four keys twice): those are refused. A file too large to
/// hold is read the same way a piece at a time (``FilePostDataService/streamPosts(_:)``).
///
/// ``encode(_:)-([Post])`` and ``encode(_:)-(Post)`` write JSONPlaceholder's shape exactly, keys in its order
/// `userId`, `id`, `title`, `body`; what they write decodes back to the same posts, and is itself a valid sync
/// source.
///
/// For example:
///
/// ```swift
/// let posts = try PostJSON.decode(Data(#"[{"userId": 1, "id": 1, "title": "a", "body": "b"}]"#.utf8))
/// let array = PostJSON.encode(posts)
/// // [{"userId": 1, "id": 1, "title": "a", "body": "b"}]
/// let lines = posts.map { PostJSON.encode($0) + Data("\n".utf8) }.reduce(Data(), +)
/// // {"userId": 1, "id": 1, "title": "a", "body": "b"}
/// ```
public enum PostJSON {
    /// Decodes a payload, choosing the format by its first character: `{` starts newline-delimited JSON,
    /// anything else must be a JSON array.
    ///
    /// - Parameters:
    ///   - data: The payload's bytes; a leading UTF-8 byte-order mark is ignored.
    ///   - maximumPostBytes: The most bytes of JSON one post may take (see ``PayloadLimits``).
    /// - Returns: The posts, in the payload's order.
    /// - Throws: ``PostStoreError/Code/invalidData`` naming the first problem.
    public static func decode(
        _ data: Data,
        maximumPostBytes: Int = PayloadLimits.defaultMaximumPostBytes
    ) throws(PostStoreError) -> [Post] {
        // A JSONPlaceholder post takes about 150 to 350 bytes of JSON; reserving for that spares growing the array
        // (and the parser's list of ids) again and again for a large payload.
        let expectedPosts = min(data.count / 128, 1 << 24)
        var parser = PostPayloadParser(expectedPosts: expectedPosts, maximumPostBytes: maximumPostBytes)
        var posts: [Post] = []
        posts.reserveCapacity(expectedPosts)
        do {
            try data.withUnsafeBytes { raw in
                _ = try parser.parse(
                    raw.bindMemory(to: UInt8.self),
                    from: 0,
                    windowOffset: 0,
                    isComplete: true,
                    into: &posts
                )
            }
        } catch let error as PostStoreError {
            throw error
        } catch {
            preconditionFailure("The payload parser throws only PostStoreError, not \(error).")
        }
        return posts
    }

    /// Encodes posts as a JSON array on one line.
    ///
    /// - Parameter posts: The posts.
    /// - Returns: UTF-8 JSON, without a trailing newline.
    public static func encode(_ posts: [Post]) -> Data {
        var writer = JSONWriter()
        writer.raw("[")
        for (index, post) in posts.enumerated() {
            if index > 0 { writer.raw(",") }
            writer.post(post)
        }
        writer.raw("]")
        return Data(writer.bytes)
    }

    /// Encodes one post as a JSON object on one line: a line of newline-delimited JSON.
    ///
    /// - Parameter post: The post.
    /// - Returns: UTF-8 JSON, without a trailing newline.
    public static func encode(_ post: Post) -> Data {
        var writer = JSONWriter()
        writer.post(post)
        return Data(writer.bytes)
    }
}
