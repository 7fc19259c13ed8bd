/// The posts of a store held in memory, in columns: every title and body in one byte array, and a slot per post
/// that says where its text lies.
///
/// The in-memory and JSON-file engines keep their posts here. A `[Int: Post]` would hold two string objects a post,
/// each an allocation with its own header, and could only be searched post by post; here the text is one
/// allocation, about the size of the text itself, and ``PostTableIndex`` answers a user's posts from a list and a
/// search from trigram filters over blocks of slots, reading only the blocks that may hold the terms
/// (``answer(_:)``).
///
/// A write appends: a new post, or one whose text grew, takes a new slot at the end; a post whose new text fits in
/// its old place is rewritten there. A removed post's slot and text stay, unused, until they outweigh the posts
/// kept, when the table is rewritten without them (``compactIfWasteful()``), so its memory stays within about twice
/// the live text. Two tables are equal when they hold the same posts, byte for byte, however they are laid out.
package struct PostTable: Sendable {
    /// Where one post lies: its id and user, and its title then its body at `start` in ``text``.
    struct Slot: Sendable {
        /// The post's id.
        var id: Int
        /// The post's user.
        var userId: Int
        /// The title's first byte in ``text``; -1 once the post is removed.
        var start: Int
        /// The title's length in bytes.
        var titleCount: Int
        /// The body's length in bytes; the body follows the title.
        var bodyCount: Int

        /// Whether the slot holds a post (it was not removed).
        var isLive: Bool { start >= 0 }
        /// The title's bytes in ``text``.
        var titleRange: Range<Int> { start..<start + titleCount }
        /// The body's bytes in ``text``.
        var bodyRange: Range<Int> { start + titleCount..<start + titleCount + bodyCount }
        /// The bytes of the title and the body.
        var textCount: Int { titleCount + bodyCount }
    }

    /// One stored post as bytes, lent to a closure: its fields point into the table and are valid only there.
    package struct StoredPost {
        /// The post's user.
        package let userId: Int
        /// The post's id.
        package let id: Int
        /// The title's UTF-8 bytes.
        package let title: UnsafeBufferPointer<UInt8>
        /// The body's UTF-8 bytes.
        package let body: UnsafeBufferPointer<UInt8>
    }

    /// Every slot, in the order they were taken.
    private(set) var slots: [Slot] = []
    /// The titles and bodies, unchanged UTF-8, including the text of removed posts until compaction.
    private(set) var text: [UInt8] = []
    /// The slot of each id.
    private(set) var slotOfId = PostSlotMap()
    /// How many posts the table holds.
    package private(set) var count = 0
    /// The bytes of ``text`` that belong to posts the table holds.
    private var liveTextCount = 0
    /// What answers queries without reading every post; queries bring it up to date, writes keep what it covers true.
    var index = PostTableIndex()

    /// An empty table.
    init() {}

    /// An empty table whose search blocks close after `blockTextBytes` of text; tests make it small, to get many.
    init(blockTextBytes: Int) {
        self.init(index: PostTableIndex(filter: TrigramBlockFilter(blockTextBytes: blockTextBytes)))
    }

    /// An empty table with this index, which covers no slot.
    private init(index: PostTableIndex) {
        self.index = index
    }

    /// A table holding `posts`; for a repeated id the last one wins.
    init(_ posts: some Sequence<Post>) {
        for post in posts { upsert(post) }
    }

    /// Whether the table holds no post.
    package var isEmpty: Bool { count == 0 }

    /// The post with this id, if the table holds one.
    package subscript(id: Int) -> Post? {
        slotOfId[id].map(post(inSlot:))
    }

    /// Whether the table holds a post with this id.
    package func contains(_ id: Int) -> Bool {
        slotOfId[id] != nil
    }

    /// Whether the table holds this post exactly: the same user, and the same title and body byte for byte.
    func holds(_ post: Post) -> Bool {
        guard let slot = slotOfId[post.id], slots[slot].userId == post.userId else { return false }
        return withStoredPost(inSlot: slot) { stored in
            stored.title.elementsEqual(post.title.utf8) && stored.body.elementsEqual(post.body.utf8)
        }
    }

    /// The id of every post, in no particular order.
    var ids: [Int] {
        slots.filter(\.isLive).map(\.id)
    }

    /// Every post, by id ascending.
    func postsInIdOrder() -> [Post] {
        slotsInIdOrder().map(post(inSlot:))
    }

    /// Lends every post's bytes to `body`, by id ascending.
    package func forEachInIdOrder(_ body: (StoredPost) throws -> Void) rethrows {
        for slot in slotsInIdOrder() {
            try withStoredPost(inSlot: slot, body)
        }
    }

    /// The live slots, by id ascending; slots usually come in id order already, so they are sorted only when not.
    private func slotsInIdOrder() -> [Int] {
        var live = slots.indices.filter { slots[$0].isLive }
        let isSorted = zip(live, live.dropFirst()).allSatisfy { slots[$0].id < slots[$1].id }
        if !isSorted { live.sort { slots[$0].id < slots[$1].id } }
        return live
    }

    /// The post in a live slot, its text copied out of the table.
    func post(inSlot slot: Int) -> Post {
        withStoredPost(inSlot: slot) { stored in
            Post(
                userId: stored.userId,
                id: stored.id,
                title: String(decoding: stored.title, as: UTF8.self),
                body: String(decoding: stored.body, as: UTF8.self)
            )
        }
    }

    /// Lends the bytes of the post in a live slot to `body`.
    func withStoredPost<Result>(inSlot slot: Int, _ body: (StoredPost) throws -> Result) rethrows -> Result {
        let entry = slots[slot]
        return try text.withUnsafeBufferPointer { text in
            try body(
                StoredPost(
                    userId: entry.userId,
                    id: entry.id,
                    title: UnsafeBufferPointer(rebasing: text[entry.titleRange]),
                    body: UnsafeBufferPointer(rebasing: text[entry.bodyRange])
                )
            )
        }
    }

    // MARK: - Writing

    /// Makes room for about this many posts and bytes of text, so that reading a store's file into the table
    /// allocates each array once: growing one doubles it, and for a moment holds the old and the new at once.
    package mutating func reserveCapacity(posts: Int, textBytes: Int) {
        slots.reserveCapacity(posts)
        text.reserveCapacity(textBytes)
    }

    /// Makes room for `posts` on top of what the table holds, as ``reserveCapacity(posts:textBytes:)`` does, when
    /// they would not fit: at least doubling what is there, so that many small writes do not each reallocate.
    mutating func reserveCapacity(adding posts: [Post]) {
        let textBytes = posts.reduce(0) { $0 + $1.title.utf8.count + $1.body.utf8.count }
        if slots.count + posts.count > slots.capacity {
            slots.reserveCapacity(max(slots.count + posts.count, 2 * slots.capacity))
        }
        if text.count + textBytes > text.capacity {
            text.reserveCapacity(max(text.count + textBytes, 2 * text.capacity))
        }
    }

    /// Stores a post, replacing the one with its id, if any.
    package mutating func upsert(_ post: Post) {
        var title = post.title
        var body = post.body
        title.withUTF8 { title in
            body.withUTF8 { body in store(id: post.id, userId: post.userId, title: title, body: body) }
        }
    }

    private mutating func store(
        id: Int,
        userId: Int,
        title: UnsafeBufferPointer<UInt8>,
        body: UnsafeBufferPointer<UInt8>
    ) {
        let textCount = title.count + body.count
        if let slot = slotOfId[id] {
            let old = slots[slot]
            if textCount <= old.textCount {
                // The new text fits in the old place: rewrite it there.
                text.withUnsafeMutableBufferPointer { text in
                    _ = UnsafeMutableBufferPointer(rebasing: text[old.start...]).update(fromContentsOf: title)
                    _ = UnsafeMutableBufferPointer(rebasing: text[(old.start + title.count)...])
                        .update(fromContentsOf: body)
                }
                let new = Slot(id: id, userId: userId, start: old.start, titleCount: title.count, bodyCount: body.count)
                slots[slot] = new
                liveTextCount += textCount - old.textCount
                index.didRewrite(slot: slot, from: old, to: new, text: text)
                return
            }
            removeSlot(slot)
        }
        slots.append(Slot(id: id, userId: userId, start: text.count, titleCount: title.count, bodyCount: body.count))
        text.append(contentsOf: title)
        text.append(contentsOf: body)
        slotOfId.set(slots.count - 1, for: id)
        count += 1
        liveTextCount += textCount
    }

    /// Removes the post with this id, if any.
    mutating func remove(_ id: Int) {
        guard let slot = slotOfId[id] else { return }
        removeSlot(slot)
        slotOfId.remove(id)
    }

    /// Marks a live slot unused; its id still points at it.
    private mutating func removeSlot(_ slot: Int) {
        let old = slots[slot]
        slots[slot].start = -1
        count -= 1
        liveTextCount -= old.textCount
        index.didRemove(slot: slot, userId: old.userId)
    }

    /// Removes every post and frees the memory they took.
    mutating func removeAll() {
        self = PostTable(index: index.emptied)
    }

    /// Rewrites the table without its unused slots and text, in id order, when they outweigh the posts kept (and
    /// take at least 64 KiB or 1,024 slots, so a small table is not rewritten at every write). The index is then
    /// built again by the next query.
    mutating func compactIfWasteful() {
        let unusedText = text.count - liveTextCount
        let unusedSlots = slots.count - count
        guard (unusedText > liveTextCount && unusedText >= 1 << 16) || (unusedSlots > count && unusedSlots >= 1024)
        else { return }
        var compacted = PostTable(index: index.emptied)
        compacted.slots.reserveCapacity(count)
        compacted.text.reserveCapacity(liveTextCount)
        for slot in slotsInIdOrder() {
            withStoredPost(inSlot: slot) { stored in
                compacted.store(id: stored.id, userId: stored.userId, title: stored.title, body: stored.body)
            }
        }
        self = compacted
    }
}

extension PostTable: Equatable {
    /// Two tables are equal when they hold the same posts, byte for byte: the same ids, each with the same user,
    /// title and body.
    package static func == (lhs: PostTable, rhs: PostTable) -> Bool {
        guard lhs.count == rhs.count else { return false }
        // A copy that no write has touched shares its arrays.
        if lhs.slots.sharesStorage(with: rhs.slots) && lhs.text.sharesStorage(with: rhs.text) { return true }
        return lhs.slots.indices.allSatisfy { slot in
            guard lhs.slots[slot].isLive else { return true }
            return lhs.withStoredPost(inSlot: slot) { stored in
                guard let other = rhs.slotOfId[stored.id] else { return false }
                return rhs.withStoredPost(inSlot: other) { match in
                    match.userId == stored.userId && match.title.elementsEqual(stored.title)
                        && match.body.elementsEqual(stored.body)
                }
            }
        }
    }
}

extension Array {
    /// Whether this array and `other` are one buffer: copies that neither has written to since.
    fileprivate func sharesStorage(with other: [Element]) -> Bool {
        count == other.count
            && withUnsafeBufferPointer { mine in other.withUnsafeBufferPointer { $0.baseAddress == mine.baseAddress } }
    }
}
