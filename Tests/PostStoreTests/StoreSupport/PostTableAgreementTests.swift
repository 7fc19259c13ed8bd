import PropertyBased
import Testing

@testable import PostStore

/// A ``PostTable`` answers every query as the reference evaluation (``PostQuery/evaluatePage(over:revision:)``) does
/// over the same posts, through random writes: inserts, updates that shrink, grow or change user, deletions, removing
/// everything, and queries between them that bring the index up to date at random points.
///
/// Blocks close after 16 bytes of text, so the trigram filters skip blocks in most searches; the text comes from
/// pieces that break byte-level matching (capitals, `İ`, `ß`, the Kelvin sign, combining marks, NUL, emoji).
@Suite("The post table agrees with the reference evaluation")
struct PostTableAgreementTests {
    static let pieces = [
        "a", "b", "ab", "abc", "A", "ABC", "é", "e\u{301}", "É", "\u{301}", "\u{307}", "😀", "한", "\"", "%", "\\",
        "\u{0}", " ", "\n", "ß", "SS", "İ", "i", "Σ", "σ", "ς", "\u{212A}", "k", "K", "sit", "amet", "dolor", "DOLOR",
        "Lorem ipsum dolor sit amet", "zyzzyva", "@", "`", "[", "{",
    ]

    static let text = Gen.element(of: pieces).array(of: 0...6).map { $0.compactMap { $0 }.joined() }

    /// Mostly small ids, one in six from the ends of `Int` and far from the rest.
    static let id = zip(Gen.int(in: 0...5), Gen.int(in: 1...24), Gen.element(of: edgeIds)).map { roll, small, edge in
        roll == 0 ? edge ?? 0 : small
    }

    static let edgeIds = [Int.min, .min + 1, .max, -3, 0, 40, 1_000]

    static let post = zip(id, Gen.int(in: 1...4), text, text).map { id, user, title, body in
        Post(userId: user, id: id, title: title, body: body)
    }

    /// Up to three terms, each one to three pieces written together.
    static let search = Gen.element(of: pieces).array(of: 1...3).map { $0.compactMap { $0 }.joined() }
        .array(of: 0...3).map { $0.joined(separator: " ") }

    static let query = zip(
        id.set(ofAtMost: 0...6).optional(valueRate: 0.2),
        Gen.int(in: 1...4).set(ofAtMost: 0...2).optional(valueRate: 0.4),
        search,
        Gen<PostQuery.Sort>.case,
        Gen.int(in: 0...6).optional(valueRate: 0.5),
        Gen.int(in: 0...4)
    ).map { ids, userIds, search, sort, limit, offset in
        PostQuery(ids: ids, userIds: userIds, search: search, sort: sort, limit: limit, offset: offset)
    }

    /// One step of a table's history.
    enum Step: Sendable, CustomStringConvertible {
        case upsert(Post)
        case remove(Int)
        case removeAll
        case query(PostQuery)

        var description: String {
            switch self {
            case .upsert(let post): "upsert \(post)"
            case .remove(let id): "remove \(id)"
            case .removeAll: "removeAll"
            case .query(let query): "query \(query)"
            }
        }
    }

    static let step = zip(Gen.int(in: 0...39), post, id, query).map { roll, post, id, query -> Step in
        switch roll {
        case 0: .removeAll
        case 1...8: .remove(id)
        case 9...24: .upsert(post)
        default: .query(query)
        }
    }

    @Test("random writes and queries: every answer is the reference's, with its total")
    func agreesWithTheReference() async {
        await propertyCheck(count: 500, input: Self.step.array(of: 1...60)) { steps in
            var table = PostTable(blockTextBytes: 16)
            var reference: [Int: Post] = [:]
            for (number, step) in steps.enumerated() {
                switch step {
                case .upsert(let post):
                    table.upsert(post)
                    reference[post.id] = post
                case .remove(let id):
                    table.remove(id)
                    reference[id] = nil
                case .removeAll:
                    table.removeAll()
                    reference = [:]
                case .query(let query):
                    // propertyCheck ignores what its body throws: a failure must be recorded to count.
                    do {
                        let expected = try query.evaluatePage(over: reference, revision: nil)
                        let (posts, total) = try table.answer(query)
                        #expect(posts == expected.posts, "step \(number), \(query): \(posts.map(\.id))")
                        #expect(total == expected.total, "step \(number), \(query): a total of \(total)")
                    } catch {
                        Issue.record(error)
                    }
                }
                table.compactIfWasteful()
            }
            #expect(table == PostTable(reference.values))
            #expect(table.count == reference.count)
            #expect(table.postsInIdOrder() == reference.values.sorted { $0.id < $1.id })
            for id in Array(1...24) + Self.edgeIds {
                #expect(table[id] == reference[id])
            }
        }
    }
}
