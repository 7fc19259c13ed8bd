/// A post as a write requires the store to hold it when the write runs (``PostChangeSet/requiredPosts``): the
/// check that turns a read, an edit and a write into one step, whichever process writes in between.
///
/// For example, an edit of the post as it was read, refused if another writer changed it since:
///
/// ```swift
/// guard let read = try await store.post(id: 7) else { return }
/// var edited = read
/// edited.title = "Edited"
/// var changes = PostChangeSet(upserts: [edited])
/// changes.requiredPosts = [.stored(read)]
/// try await store.apply(changes)  // PostStoreError.Code.postChanged if post 7 is no longer `read`
/// ```
public struct RequiredPost: Sendable, Hashable {
    /// The post's id.
    public var id: Int
    /// The post as the store must hold it, compared byte for byte (``Post/==(_:_:)``); `nil`: the store must hold
    /// no post of this id.
    public var post: Post?

    /// Requires the store to hold `post` exactly, under its id.
    ///
    /// - Parameter post: The post as read.
    /// - Returns: The requirement.
    public static func stored(_ post: Post) -> RequiredPost {
        RequiredPost(id: post.id, post: post)
    }

    /// Requires the store to hold no post of `id`.
    ///
    /// - Parameter id: The id.
    /// - Returns: The requirement.
    public static func absent(id: Int) -> RequiredPost {
        RequiredPost(id: id, post: nil)
    }
}
