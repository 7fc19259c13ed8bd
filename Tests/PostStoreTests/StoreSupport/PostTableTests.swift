import Testing

@testable import PostStore

@Suite("Post table")
struct PostTableTests {
    /// The ids a query answers, in order.
    private func ids(_ table: inout PostTable, _ query: PostQuery) throws -> [Int] {
        try table.answer(query).posts.map(\.id)
    }

    @Test("a post rewritten in place, or moved to a new slot, is found by its new text and user only")
    func updates() throws {
        var table = PostTable(blockTextBytes: 32)
        table.upsert(Post(userId: 1, id: 1, title: "Zyzzyva here", body: "a body long enough to leave room"))
        table.upsert(Post(userId: 1, id: 2, title: "two", body: "second"))
        // The first query indexes both posts; the writes after it keep the index true.
        #expect(try ids(&table, PostQuery(search: "zyzzyva")) == [1])

        table.upsert(Post(userId: 2, id: 1, title: "Quokka", body: "short"))
        #expect(table.slots.count == 2, "shorter text is rewritten in place")
        #expect(try ids(&table, PostQuery(search: "zyzzyva")) == [])
        #expect(try ids(&table, PostQuery(search: "QUOKKA short")) == [1])
        #expect(try ids(&table, PostQuery(userIds: [1])) == [2])
        #expect(try ids(&table, PostQuery(userIds: [2])) == [1])

        table.upsert(Post(userId: 1, id: 1, title: "Axolotl", body: "a body far longer than any before it"))
        #expect(table.slots.count == 3, "longer text takes a new slot")
        #expect(try ids(&table, PostQuery(search: "axolotl")) == [1])
        #expect(try ids(&table, PostQuery(search: "quokka")) == [])
        #expect(try ids(&table, PostQuery(userIds: [1])) == [1, 2])
        #expect(try ids(&table, PostQuery(userIds: [1], sort: .idDescending)) == [2, 1])
        #expect(try ids(&table, PostQuery(userIds: [2])) == [])
        #expect(table[1] == Post(userId: 1, id: 1, title: "Axolotl", body: "a body far longer than any before it"))
        #expect(table.count == 2)
    }

    @Test("a removed post leaves no trace in answers, and removeAll empties the table and its index")
    func deletes() throws {
        var table = PostTable(blockTextBytes: 16)
        for id in 1...6 {
            table.upsert(Post(userId: id % 2, id: id, title: "Title \(id)", body: "common body"))
        }
        #expect(try table.answer(PostQuery(userIds: [0], limit: 2)).total == 3)
        table.remove(4)
        table.remove(4)
        table.remove(99)
        #expect(table.count == 5)
        #expect(table[4] == nil)
        #expect(try ids(&table, PostQuery(userIds: [0])) == [2, 6])
        #expect(try ids(&table, PostQuery(search: "common")) == [1, 2, 3, 5, 6])
        #expect(try ids(&table, PostQuery(search: "title 4")) == [])
        #expect(try table.answer(PostQuery(userIds: [0], limit: 1)).total == 2)

        table.upsert(Post(userId: 0, id: 4, title: "Back", body: "again"))
        #expect(try ids(&table, PostQuery(userIds: [0])) == [2, 4, 6], "a removed id comes back once")

        table.removeAll()
        #expect(table.isEmpty)
        #expect(table.slots.isEmpty && table.text.isEmpty)
        #expect(table.index.indexedSlots == 0)
        #expect(try table.answer(PostQuery(userIds: [0])) == ([], 0))
        #expect(try ids(&table, PostQuery(search: "common")) == [])
        table.upsert(Post(userId: 7, id: 1, title: "new", body: "start"))
        #expect(try ids(&table, PostQuery(userIds: [7], search: "NEW")) == [1])
    }

    @Test("a preview counts what a write would do and leaves the posts and the index as they were")
    func previewLeavesTheIndexUntouched() throws {
        var contents = StoreContents()
        _ = try contents.apply(
            PostChangeSet(upserts: [
                Post(userId: 1, id: 1, title: "one", body: "first"),
                Post(userId: 1, id: 2, title: "two", body: "second"),
                Post(userId: 2, id: 3, title: "three", body: "third"),
            ])
        )
        #expect(try contents.query(PostQuery(userIds: [1])).map(\.id) == [1, 2])
        let before = contents
        let slots = contents.posts.slots.count
        let indexed = contents.posts.index.indexedSlots

        let summary = try contents.preview(
            PostChangeSet(
                upserts: [
                    Post(userId: 1, id: 4, title: "four", body: "fourth"),
                    Post(userId: 2, id: 1, title: "ONE", body: "first, longer than before"),
                    Post(userId: 2, id: 3, title: "three", body: "third"),
                ],
                deletions: [2]
            )
        )

        #expect(summary == WriteSummary(inserted: 1, updated: 1, unchanged: 1, deleted: 1))
        #expect(contents == before)
        #expect(contents.history.token == before.history.token)
        #expect(contents.posts.slots.count == slots)
        #expect(contents.posts.text == before.posts.text)
        #expect(contents.posts.index.indexedSlots == indexed)
        #expect(try contents.query(PostQuery(userIds: [1])).map(\.id) == [1, 2])
        #expect(try contents.query(PostQuery(search: "four")).isEmpty)
    }

    @Test("a term never matches across a title and its body, nor across two posts side by side in the text")
    func noMatchAcrossFieldsOrPosts() throws {
        var table = PostTable(blockTextBytes: 1 << 20)
        table.upsert(Post(userId: 1, id: 1, title: "Zyz", body: "zyvA"))
        table.upsert(Post(userId: 1, id: 2, title: "bc", body: "dE"))
        table.upsert(Post(userId: 1, id: 3, title: "fg", body: "h"))
        #expect(try ids(&table, PostQuery(search: "zyzzyva")) == [], "title + body")
        #expect(try ids(&table, PostQuery(search: "abc")) == [], "body of 1 + title of 2")
        #expect(try ids(&table, PostQuery(search: "ef")) == [], "body of 2 + title of 3")
        #expect(try ids(&table, PostQuery(search: "zyz zyva")) == [1], "each term in its own field")
        #expect(try ids(&table, PostQuery(search: "de")) == [2])
    }

    @Test("text that is not ASCII is lowercased by Swift's rules, as the reference lowercases it")
    func unicodeLowercasing() throws {
        var table = PostTable()
        table.upsert(Post(userId: 1, id: 1, title: "İstanbul", body: ""))
        table.upsert(Post(userId: 1, id: 2, title: "STRAßE", body: "Maß"))
        table.upsert(Post(userId: 1, id: 3, title: "\u{212A}elvin", body: "ΣΊΣΥΦΟΣ"))
        table.upsert(Post(userId: 1, id: 4, title: "plain ascii", body: "İ"))
        #expect(try ids(&table, PostQuery(search: "İstanbul")) == [1])
        #expect(try ids(&table, PostQuery(search: "i\u{307}stanbul")) == [1])
        #expect(try ids(&table, PostQuery(search: "istanbul")) == [], "İ lowercases to i + U+0307")
        #expect(try ids(&table, PostQuery(search: "i")) == [1, 3, 4], "the i of İ, of kelvin and of ascii")
        #expect(try ids(&table, PostQuery(search: "straße")) == [2])
        #expect(try ids(&table, PostQuery(search: "ß")) == [2])
        #expect(try ids(&table, PostQuery(search: "strasse")) == [], "ß does not lowercase to ss")
        #expect(try ids(&table, PostQuery(search: "kelvin")) == [3], "the Kelvin sign lowercases to k")
        #expect(try ids(&table, PostQuery(search: "k")) == [3])
        #expect(try ids(&table, PostQuery(search: "σίσυφοσ")) == [3], "no final sigma")
        #expect(try ids(&table, PostQuery(search: "σίσυφος")) == [])
        #expect(try ids(&table, PostQuery(search: "Ascii İ")) == [4])
    }

    @Test("ASCII text is folded as letters only: @ is not `, [ is not {")
    func asciiFoldsLettersOnly() throws {
        var table = PostTable()
        table.upsert(Post(userId: 1, id: 1, title: "mail@HOST", body: "[X]"))
        #expect(try ids(&table, PostQuery(search: "@host")) == [1])
        #expect(try ids(&table, PostQuery(search: "`host")) == [])
        #expect(try ids(&table, PostQuery(search: "{x]")) == [])
        #expect(try ids(&table, PostQuery(search: "[x]")) == [1])
    }

    @Test("NUL characters are stored, searched and sorted like any other")
    func nulCharacters() throws {
        var table = PostTable()
        table.upsert(Post(userId: 1, id: 1, title: "a\u{0}b", body: "\u{0}\u{0}\u{0}"))
        table.upsert(Post(userId: 1, id: 2, title: "a", body: "b"))
        table.upsert(Post(userId: 1, id: 3, title: "a\u{0}", body: ""))
        #expect(table[1] == Post(userId: 1, id: 1, title: "a\u{0}b", body: "\u{0}\u{0}\u{0}"))
        #expect(try ids(&table, PostQuery(search: "\u{0}")) == [1, 3])
        #expect(try ids(&table, PostQuery(search: "A\u{0}B")) == [1])
        #expect(try ids(&table, PostQuery(search: "\u{0}\u{0}\u{0}")) == [1])
        #expect(try ids(&table, PostQuery(search: "a\u{0}\u{0}")) == [], "title + body")
        #expect(try ids(&table, PostQuery(sort: .title)) == [2, 3, 1])
    }

    @Test("titles sort by their UTF-8 bytes, equal titles by id ascending in both directions")
    func titleOrder() throws {
        var table = PostTable()
        for (id, title) in [(5, "b"), (3, "é"), (1, "b"), (4, "Z"), (2, "ba"), (6, "")] {
            table.upsert(Post(userId: 1, id: id, title: title, body: ""))
        }
        #expect(try ids(&table, PostQuery(sort: .title)) == [6, 4, 1, 5, 2, 3])
        #expect(try ids(&table, PostQuery(sort: .titleDescending)) == [3, 2, 1, 5, 4, 6])
        #expect(try ids(&table, PostQuery(sort: .title, limit: 2, offset: 2)) == [1, 5])
    }

    @Test("a rewritten post's new trigrams reach its block's filter, so a search that the old text failed finds it")
    func rewrittenPostsAreFoundThroughTheFilter() throws {
        var table = PostTable(blockTextBytes: 16)
        for id in 1...40 {
            table.upsert(Post(userId: 1, id: id, title: "lorem \(id)", body: "ipsum dolor sit amet"))
        }
        #expect(try ids(&table, PostQuery(search: "zyzzyva")) == [])
        #expect(table.index.filter.blockCount > 10)
        table.upsert(Post(userId: 1, id: 17, title: "zyzzyva", body: "short"))
        table.upsert(Post(userId: 1, id: 33, title: "ZYZZYVA", body: "x"))
        #expect(table.slots.count == 40, "both rewritten in place")
        #expect(try ids(&table, PostQuery(search: "zyzzyva")) == [17, 33])
        #expect(try ids(&table, PostQuery(search: "zyzzyva", sort: .idDescending, limit: 1)) == [33])
    }

    @Test("when removed posts outweigh the rest the table is rewritten without them, in id order")
    func compaction() throws {
        var table = PostTable()
        for id in (1...2000).reversed() {
            table.upsert(Post(userId: id % 3, id: id, title: "post \(id)", body: id % 100 == 0 ? "rare" : "body"))
        }
        #expect(try ids(&table, PostQuery(search: "rare")) == Array(stride(from: 100, through: 2000, by: 100)))
        for id in 1...1500 { table.remove(id) }
        table.compactIfWasteful()
        #expect(table.slots.count == 500, "rewritten without the removed posts")
        #expect(table.slots.map(\.id) == Array(1501...2000))
        #expect(table.index.indexedSlots == 0)
        #expect(try ids(&table, PostQuery(search: "rare")) == Array(stride(from: 1600, through: 2000, by: 100)))
        #expect(try ids(&table, PostQuery(userIds: [0], limit: 3)) == [1503, 1506, 1509])
        #expect(table[1000] == nil && table[2000]?.body == "rare")
    }

    @Test("tables are equal when they hold the same posts, however laid out")
    func equality() {
        var grown = PostTable()
        grown.upsert(Post(userId: 1, id: 1, title: "a", body: "b"))
        grown.upsert(Post(userId: 1, id: 2, title: "c", body: "d"))
        grown.upsert(Post(userId: 1, id: 1, title: "a longer title", body: "b"))
        grown.remove(2)
        grown.upsert(Post(userId: 1, id: 2, title: "c", body: "d"))
        let fresh = PostTable([
            Post(userId: 1, id: 2, title: "c", body: "d"), Post(userId: 1, id: 1, title: "a longer title", body: "b"),
        ])
        #expect(grown == fresh)
        var other = fresh
        other.upsert(Post(userId: 2, id: 2, title: "c", body: "d"))
        #expect(other != fresh)
        other.upsert(Post(userId: 1, id: 2, title: "c", body: "e\u{301}"))
        #expect(other != PostTable([Post(userId: 1, id: 2, title: "c", body: "é")]))
    }
}
