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

    /// A store under test, and whether it keeps NUL characters: a store that keeps none (PostgreSQL) must refuse
    /// each write that holds one, whole, and is then given the write without them, as its reference is.
    struct Subject {
        var name: String
        var kind: StoreKind?
        var keepsNULCharacters: Bool
        var store: any PostStoreProtocol
    }

    /// The stores under test: every kind, and where some kind keeps no NUL character, an in-memory store beside
    /// it that is given each write without them, the reference those kinds are held to.
    static func subjects(in directory: TemporaryDirectory) throws -> [Subject] {
        var subjects = try StoreKind.allCases.map { kind in
            Subject(
                name: kind.name,
                kind: kind,
                keepsNULCharacters: kind.keepsNULCharacters,
                store: try kind.makeStore(in: directory, name: kind.name)
            )
        }
        if subjects.contains(where: { !$0.keepsNULCharacters }) {
            subjects.append(
                Subject(name: "memory without NUL", kind: nil, keepsNULCharacters: false, store: InMemoryPostStore())
            )
        }
        return subjects
    }

    @Test("random histories and queries give one answer from every engine, also after reopening")
    func enginesAgree() async throws {
        await propertyCheck(count: 60, input: Self.scenario, Self.query.array(of: 10...10)) { scenario, queries in
            // propertyCheck ignores what its body throws: a failure must be recorded to count.
            do {
                let directory = try TemporaryDirectory()
                defer { directory.keepAlive() }
                var subjects = try Self.subjects(in: directory)
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
                    var outcomes: [Bool: [String]] = [:]
                    for subject in subjects {
                        var changes = changes
                        if !subject.keepsNULCharacters, changes.upserts.contains(where: \.holdsNUL) {
                            if subject.kind != nil {
                                let refused = await #expect(throws: PostStoreError.self, "\(subject.name)") {
                                    try await subject.store.apply(changes)
                                }
                                #expect(
                                    refused?.code == .invalidData,
                                    "\(subject.name): \(String(describing: refused))"
                                )
                            }
                            changes.upserts = changes.upserts.map(\.withoutNULs)
                        }
                        let preview = try? await subject.store.preview(changes)
                        do {
                            let summary = try await subject.store.apply(changes)
                            #expect(preview == summary, "preview \(String(describing: preview)) but apply \(summary)")
                            outcomes[subject.keepsNULCharacters, default: []].append("\(summary)")
                        } catch let error as PostStoreError where error.code == .tooManyDeletions {
                            #expect(preview == nil)
                            outcomes[subject.keepsNULCharacters, default: []].append(error.message)
                        }
                    }
                    #expect(outcomes.values.allSatisfy { Set($0).count == 1 }, "write outcomes differ: \(outcomes)")
                }
                // Persistent engines answer from their files, read afresh.
                for index in subjects.indices {
                    guard let kind = subjects[index].kind else { continue }
                    subjects[index].store = try kind.reopen(in: directory, name: kind.name) ?? subjects[index].store
                }
                // Each group is held to its first store: those that keep NUL characters, and those that keep none.
                for group in [true, false] {
                    let members = subjects.filter { $0.keepsNULCharacters == group }
                    guard let reference = members.first else { continue }
                    try await Self.expectAgreement(of: members, reference: reference, on: queries)
                }
            } catch {
                Issue.record(error)
            }
        }
    }

    /// Expects every store to answer each query, page, sync state and count as the reference does.
    static func expectAgreement(of subjects: [Subject], reference: Subject, on queries: [PostQuery]) async throws {
        for query in queries {
            let expected = try await reference.store.query(query)
            let total = try await reference.store.query(query.withoutWindow).count
            for subject in subjects {
                let answer = try await subject.store.query(query)
                #expect(
                    answer == expected,
                    "query \(query) answered \(answer.map(\.id)) by \(subject.name), \(expected.map(\.id)) by \(reference.name)"
                )
                // A page (what `poststore serve` reads) is the same window with the count of every match.
                let page = try await subject.store.readPage(query)
                #expect(page.posts == expected && page.total == total, "\(subject.name) page of \(query)")
                #expect((page.revision != nil) == (subject.store is any PostPageReading), "\(subject.name) revision")
            }
        }
        let expectedStates = try await reference.store.syncStates().map { Array($0.source.utf8) }
        let expectedCount = try await reference.store.count()
        for subject in subjects {
            let states = try await subject.store.syncStates().map { Array($0.source.utf8) }
            #expect(states == expectedStates, "sync states of \(subject.name) differ: \(states)")
            #expect(try await subject.store.count() == expectedCount, "\(subject.name) count")
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

extension Post {
    /// Whether the title or the body holds a NUL character.
    var holdsNUL: Bool { title.utf8.contains(0) || body.utf8.contains(0) }

    /// The post without its NUL characters.
    var withoutNULs: Post {
        var post = self
        post.title.unicodeScalars.removeAll { $0 == "\0" }
        post.body.unicodeScalars.removeAll { $0 == "\0" }
        return post
    }
}
