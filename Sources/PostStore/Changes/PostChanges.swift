/// One answer of a store's changes feed: the posts written and the ids deleted since a token, up to the next token.
///
/// An answer covers whole writes only, and is read from one state of the store: applying the answers to a copy in
/// order (``PostChangeSet/init(changes:syncState:)`` makes the change set) takes the copy only through states that the store
/// held, and each answer's ``next`` token stands for the state the copy then holds.
public struct PostChanges: Sendable, Hashable {
    /// The posts inserted or changed since the token, as they are now, in id order.
    public var posts: [Post]
    /// The ids of posts deleted since the token, in increasing order. A post deleted and then written again is among
    /// ``posts`` instead; an id may name a post that the token's state did not hold (inserted, then deleted).
    public var deletedIds: [Int]
    /// The token of the state these changes lead to: ask for the changes since it next.
    public var next: ChangeToken
    /// Whether ``next`` is the store's newest state: `false` when the answer stopped at its limit and more changes
    /// follow.
    public var isCaughtUp: Bool

    /// Creates an answer.
    ///
    /// - Parameters:
    ///   - posts: The posts written, in id order.
    ///   - deletedIds: The ids deleted, in increasing order.
    ///   - next: The token of the state the changes lead to.
    ///   - isCaughtUp: Whether `next` is the store's newest state.
    public init(posts: [Post], deletedIds: [Int], next: ChangeToken, isCaughtUp: Bool) {
        self.posts = posts
        self.deletedIds = deletedIds
        self.next = next
        self.isCaughtUp = isCaughtUp
    }

    /// How many changes ``PostStoreProtocol/changes(since:)`` answers at most (more when one write holds more).
    public static let defaultLimit = 10_000

    /// How many posts and deletions the answer holds.
    public var count: Int { posts.count + deletedIds.count }
}
