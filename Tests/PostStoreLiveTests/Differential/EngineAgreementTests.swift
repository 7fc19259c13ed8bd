import Foundation
import PostStore
import PostStoreTestSupport
import PostStoreTesting
import PropertyBased
import Testing

/// Random posts and random queries give identical answers from every engine.
///
/// The text is built from pieces chosen to break naive implementations: emoji, Korean, composed and decomposed
/// accents, characters whose lowercase form is longer (`İ`) or special (`ß`, `Σ`), the Kelvin sign, quotes, SQL and
/// LIKE metacharacters, backslashes, whitespace of several kinds, and NUL.
@Suite("Engines agree")
struct EngineAgreementTests {
    static let pieces = [
        "a", "b", "ab", "abc", "A", "B", "ABC", "é", "e\u{301}", "É", "\u{301}", "\u{307}", "😀", "👍🏽", "한", "국어", "\"",
        "'", "%", "_", "\\", ";", "--", "\u{0}", " ", "\n", "\t", "ß", "SS", "İ", "i", "Σ", "σ", "ς", "\u{212A}", "k",
        "ﬁ",
        "DROP", "\u{FFFF}", "\u{FFFD}", "sit", "amet", "dolor",
    ]

    static let text = Gen.element(of: pieces).array(of: 0...8).map { $0.compactMap { $0 }.joined() }

    static let post = zip(Gen.int(in: 1...30), Gen.int(in: 1...4), text, text).map { id, user, title, body in
        Post(userId: user, id: id, title: title, body: body)
    }

    /// Sources that differ only in Unicode normalization, which a store must keep apart.
    static let sources = ["caf\u{E9}", "cafe\u{301}", "https://example.com/posts", ""]

    /// One store's history: batches of upserts and deletions, some pruning under a deletion limit, each saving a
    /// sync state that records what its batch did.
    struct Scenario: Sendable, CustomStringConvertible {
        var batches: [[Post]]
        var deletions: [Set<Int>]
        var sources: [String]
        var prunes: [(prune: Bool, limit: Double)]

        var description: String {
            "batches: \(batches), deletions: \(deletions), sources: \(sources), prunes: \(prunes)"
        }
    }

    static let scenario = zip(
        post.array(of: 0...25).array(of: 1...4),
        Gen.int(in: 1...30).set(ofAtMost: 0...6).array(of: 1...4),
        Gen.element(of: sources).array(of: 4),
        zip(Gen.bool(0.3), Gen.element(of: [0, 0.25, 0.5, 1])).array(of: 4)
    ).map { batches, deletions, sources, prunes in
        // A batch may not repeat an id (that is a constraint violation, tested on its own); keep the last of each.
        let unique = batches.map { batch in
            Array(Dictionary(batch.map { ($0.id, $0) }, uniquingKeysWith: { $1 }).values)
        }
        return Scenario(
            batches: unique,
            deletions: deletions,
            sources: sources.map { $0 ?? "" },
            prunes: prunes.map { ($0, $1 ?? 1) }
        )
    }

    /// Search text: up to three terms, each one to three pieces written together, so terms of three or more
    /// characters hold quotes, NUL, combining marks and the rest.
    static let search = Gen.element(of: pieces).array(of: 1...3).map { $0.compactMap { $0 }.joined() }
        .array(of: 0...3).map { $0.joined(separator: " ") }

    static let query = zip(
        Gen.int(in: 1...30).set(ofAtMost: 0...8).optional(valueRate: 0.2),
        Gen.int(in: 1...4).set(ofAtMost: 0...3).optional(valueRate: 0.2),
        search,
        Gen<PostQuery.Sort>.case,
        Gen.int(in: 0...12).optional(valueRate: 0.4),
        Gen.int(in: 0...8)
    ).map { ids, userIds, search, sort, limit, offset in
        PostQuery(ids: ids, userIds: userIds, search: search, sort: sort, limit: limit, offset: offset)
    }

    @Test("random histories and queries give one answer from every engine, also after reopening")
    func enginesAgree() async throws {
        await propertyCheck(count: 60, input: Self.scenario, Self.query.array(of: 10...10)) { scenario, queries in
            // propertyCheck ignores what its body throws: a failure must be recorded to count.
            do {
                let directory = try TemporaryDirectory()
                defer { directory.keepAlive() }
                var stores = try StoreKind.allCases.map { try $0.makeStore(in: directory, name: $0.name) }
                for (index, (batch, deletions)) in zip(scenario.batches, scenario.deletions).enumerated() {
                    let changes = PostChangeSet(
                        upserts: batch,
                        deletions: deletions.subtracting(batch.map(\.id)),
                        prune: scenario.prunes[index].prune,
                        deletionLimit: .share(scenario.prunes[index].limit),
                        syncState: SyncState(
                            source: scenario.sources[index],
                            syncedAt: Date(timeIntervalSince1970: 1e9)
                        ),
                        syncStateRecording: .recordingSummary
                    )
                    // Each engine previews, then applies; a refusal over the limit must come from all of them.
                    var outcomes: [String] = []
                    for store in stores {
                        let preview = try? await store.preview(changes)
                        do {
                            let summary = try await store.apply(changes)
                            #expect(preview == summary, "preview \(String(describing: preview)) but apply \(summary)")
                            outcomes.append("\(summary)")
                        } catch let error as PostStoreError where error.code == .tooManyDeletions {
                            #expect(preview == nil)
                            outcomes.append(error.message)
                        }
                    }
                    #expect(Set(outcomes).count == 1, "write outcomes differ: \(outcomes)")
                }
                // Persistent engines answer from their files, read afresh.
                stores = try zip(StoreKind.allCases, stores).map { kind, store in
                    try kind.reopen(in: directory, name: kind.name) ?? store
                }
                for query in queries {
                    var answers: [[Post]] = []
                    for store in stores { answers.append(try await store.query(query)) }
                    #expect(
                        answers.allSatisfy { $0 == answers[0] },
                        "query \(query) answered \(answers.map { $0.map(\.id) }) by \(StoreKind.allCases)"
                    )
                    // A page (what `poststore serve` reads) is the same window with the count of every match.
                    var unwindowed = query
                    unwindowed.limit = nil
                    unwindowed.offset = 0
                    let total = try await stores[0].query(unwindowed).count
                    for (kind, store) in zip(StoreKind.allCases, stores) {
                        let page = try await store.readPage(query)
                        #expect(page.posts == answers[0] && page.total == total, "\(kind) page of \(query)")
                        #expect((page.revision != nil) == (store is any PostPageReading), "\(kind) revision")
                    }
                }
                let states = try await stores.asyncMap { try await $0.syncStates().map { Array($0.source.utf8) } }
                #expect(states.allSatisfy { $0 == states[0] }, "sync states differ: \(states)")
                let counts = try await stores.asyncMap { try await $0.count() }
                #expect(Set(counts).count == 1)
            } catch {
                Issue.record(error)
            }
        }
    }

    @Test("a search of 1,500 terms gets one answer from every engine")
    func manyTerms() async throws {
        let directory = try TemporaryDirectory()
        let posts = SamplePosts.make(count: 50)
        let words = Set(posts.flatMap { ($0.title + " " + $0.body).split(whereSeparator: \.isWhitespace) })
        let search = (0..<1500).map { index in String(Array(words)[index % words.count]) }.joined(separator: " ")
        var answers: [[Post]] = []
        for kind in StoreKind.allCases {
            let store = try kind.makeStore(in: directory, name: kind.name)
            try await store.upsert(posts)
            answers.append(try await store.query(PostQuery(search: search)))
        }
        #expect(answers.allSatisfy { $0 == answers[0] })
        let narrow = (0..<1500).map { _ in "lorem" }.joined(separator: " ")
        for kind in StoreKind.allCases {
            let store = try kind.reopen(in: directory, name: kind.name) ?? InMemoryPostStore(posts: posts)
            #expect(
                try await store.query(PostQuery(search: narrow)).count
                    == posts.filter { TextSearch("lorem").matches($0) }.count
            )
        }
    }
}

extension Array {
    /// Maps each element with an async function, in order.
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var result: [T] = []
        for element in self { result.append(try await transform(element)) }
        return result
    }
}
