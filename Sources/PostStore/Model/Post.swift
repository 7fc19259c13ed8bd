/// One post, exactly as JSONPlaceholder's `/posts` serves it.
///
/// The JSON form has the four keys `userId`, `id`, `title` and `body`; decoding rejects a record where any of them is
/// missing or has the wrong type (see ``PostJSON`` for errors that name the record's position and field).
/// Keys beyond these four are ignored, so a source that adds fields still decodes.
///
/// For example:
///
/// ```swift
/// let post = Post(userId: 1, id: 1, title: "Hello", body: "First post")
/// ```
public struct Post: Codable, Sendable, Hashable, Identifiable {
    /// The id of the user who wrote the post.
    public var userId: Int

    /// The post's unique id; a store holds at most one post per id.
    public var id: Int

    /// The title, any Unicode text (NUL characters included).
    public var title: String

    /// The body, any Unicode text (NUL characters and newlines included).
    public var body: String

    /// Creates a post.
    ///
    /// - Parameters:
    ///   - userId: The id of the user who wrote the post.
    ///   - id: The post's unique id.
    ///   - title: The title.
    ///   - body: The body.
    public init(userId: Int, id: Int, title: String, body: String) {
        self.userId = userId
        self.id = id
        self.title = title
        self.body = body
    }

    private enum CodingKeys: String, CodingKey {
        case userId, id, title, body
    }
}

extension Post {
    /// Two posts are equal when every field is equal byte for byte.
    ///
    /// Swift's `String ==` treats canonically equivalent strings as equal (`"é"` precomposed equals `"e\u{301}"`);
    /// a store must not: a source that changes a title's normalization has changed the post, and SQLite compares
    /// bytes. Every engine decides "updated or unchanged" with this comparison.
    public static func == (lhs: Post, rhs: Post) -> Bool {
        lhs.id == rhs.id && lhs.userId == rhs.userId && lhs.title.utf8.elementsEqual(rhs.title.utf8)
            && lhs.body.utf8.elementsEqual(rhs.body.utf8)
    }

    /// Hashes the fields byte for byte, consistent with ``==(_:_:)``.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(userId)
        for text in [title, body] {
            var text = text
            text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
            hasher.combine(text.utf8.count)
        }
    }
}
