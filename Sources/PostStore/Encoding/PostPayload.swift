public import Foundation

/// Checks and decodes what a data service received: a JSON array of posts, or newline-delimited JSON (one post
/// per line).
///
/// Everything is checked before a single post is returned, so a sync never commits part of a bad payload: the
/// bytes must be UTF-8, the text JSON (RFC 8259, strictly), the top level an array (or one object per line), every
/// record a complete post, and no id may appear twice. The first problem found is reported with the record's
/// position and id, and the field, or the byte offset where the JSON breaks.
///
/// The decoder reads the bytes directly (several times faster than `JSONDecoder`, see the README's
/// "Performance"), and accepts what `JSONDecoder` accepts for ``Post`` — unknown keys skipped, `1.0` or `1e2` for
/// a whole number — except where Foundation is lenient about JSON itself (a trailing comma, an invalid escape in an
/// ignored field) or a record is ambiguous (one of the four keys twice): those are refused. A file too large to
/// hold is read the same way a piece at a time (``FilePostDataService/streamPosts(_:)``).
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
    /// - Parameters:
    ///   - data: The payload's bytes; a leading UTF-8 byte-order mark is ignored.
    ///   - maximumPostBytes: The most bytes of JSON one post may take (see ``PayloadLimits``).
    /// - Returns: The posts, in the payload's order.
    /// - Throws: ``PostStoreError/Code/invalidData`` naming the first problem.
    public static func decode(
        _ data: Data,
        maximumPostBytes: Int = PayloadLimits.defaultMaximumPostBytes
    ) throws(PostStoreError) -> [Post] {
        try decode(data, acceptsOnlyArrays: false, maximumPostBytes: maximumPostBytes)
    }

    /// Decodes a whole payload in one window.
    static func decode(
        _ data: Data,
        acceptsOnlyArrays: Bool,
        maximumPostBytes: Int = PayloadLimits.defaultMaximumPostBytes
    ) throws(PostStoreError) -> [Post] {
        // A JSONPlaceholder post takes about 150 to 350 bytes of JSON; reserving for that spares growing the array
        // (and the parser's list of ids) again and again for a large payload.
        let expectedPosts = min(data.count / 128, 1 << 24)
        var parser = PostPayloadParser(
            acceptsOnlyArrays: acceptsOnlyArrays,
            expectedPosts: expectedPosts,
            maximumPostBytes: maximumPostBytes
        )
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
}
