public import Foundation

/// Writes posts as JSON exactly in JSONPlaceholder's shape: keys `userId`, `id`, `title`, `body`, in that order.
///
/// What it writes is itself a valid sync source (see ``PostPayload``). For example:
///
/// ```swift
/// let data = PostEncoding.jsonArray([Post(userId: 1, id: 1, title: "Hello", body: "World")])
/// // [{"userId": 1, "id": 1, "title": "Hello", "body": "World"}]
/// ```
public enum PostEncoding {
    /// A JSON array of posts on one line.
    ///
    /// - Parameter posts: The posts.
    /// - Returns: UTF-8 JSON, without a trailing newline.
    public static func jsonArray(_ posts: [Post]) -> Data {
        var writer = JSONWriter()
        writer.raw("[")
        for (index, post) in posts.enumerated() {
            if index > 0 { writer.raw(",") }
            writer.post(post)
        }
        writer.raw("]")
        return Data(writer.bytes)
    }

    /// One post as a JSON object on one line, as newline-delimited JSON has it.
    ///
    /// - Parameter post: The post.
    /// - Returns: UTF-8 JSON, without a trailing newline.
    public static func jsonObject(_ post: Post) -> Data {
        var writer = JSONWriter()
        writer.post(post)
        return Data(writer.bytes)
    }
}
