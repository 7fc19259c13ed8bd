import Foundation
import PostStore
import PostStoreTesting
import Testing

extension ContractCheck {
    /// A query selects posts by ids and by users, both at once, and an empty set selects nothing.
    static let queryFiltersByIdsAndUsers = ContractCheck(
        "queryFiltersByIdsAndUsers",
        "A query selects posts by ids and by users, both at once, and an empty set selects nothing."
    ) { store, _ async throws in
        _ = try await store.upsert(SamplePosts.make(count: 30))
        #expect(try await store.query(PostQuery(ids: [3, 1, 99])).map(\.id) == [1, 3])
        #expect(try await store.query(PostQuery(userIds: [2])).map(\.id) == Array(11...20))
        #expect(try await store.query(PostQuery(ids: [5, 15, 25], userIds: [2, 3])).map(\.id) == [15, 25])
        #expect(try await store.query(PostQuery(ids: [])) == [])
        #expect(try await store.query(PostQuery(userIds: [])) == [])
        #expect(try await store.query(PostQuery(userIds: [42])) == [])
    }

    /// A query sorts by id, title (code point order) or user, ties broken by id.
    static let querySortsEveryWayWithTiesById = ContractCheck(
        "querySortsEveryWayWithTiesById",
        "A query sorts by id, title (code point order) or user, ties broken by id."
    ) { store, _ async throws in
        let posts = [
            Post(userId: 2, id: 1, title: "b", body: ""),
            Post(userId: 1, id: 2, title: "a", body: ""),
            Post(userId: 2, id: 3, title: "B", body: ""),
            Post(userId: 1, id: 4, title: "b", body: ""),
            Post(userId: 3, id: 5, title: "é", body: ""),
            Post(userId: 3, id: 6, title: "e\u{301}", body: ""),
            Post(userId: 0, id: 7, title: "", body: ""),
        ]
        _ = try await store.upsert(posts)
        func ids(_ sort: PostQuery.Sort) async throws -> [Int] {
            try await store.query(PostQuery(sort: sort)).map(\.id)
        }
        #expect(try await ids(.idAscending) == [1, 2, 3, 4, 5, 6, 7])
        #expect(try await ids(.idDescending) == [7, 6, 5, 4, 3, 2, 1])
        // Code point order: "" < "B" < "a" < "b" < "e\u{301}" < "é" (U+0065 before U+00E9).
        #expect(try await ids(.title) == [7, 3, 2, 1, 4, 6, 5])
        #expect(try await ids(.user) == [7, 2, 4, 1, 3, 5, 6])
    }

    /// A query's limit and offset window the sorted posts, whatever their size.
    static let queryWindowsAfterSorting = ContractCheck(
        "queryWindowsAfterSorting",
        "A query's limit and offset window the sorted posts, whatever their size."
    ) { store, _ async throws in
        _ = try await store.upsert(SamplePosts.make(count: 10))
        #expect(try await store.query(PostQuery(sort: .idDescending, limit: 3)).map(\.id) == [10, 9, 8])
        #expect(try await store.query(PostQuery(limit: 3, offset: 8)).map(\.id) == [9, 10])
        #expect(try await store.query(PostQuery(offset: 10)) == [])
        #expect(try await store.query(PostQuery(offset: Int.max)) == [])
        #expect(try await store.query(PostQuery(limit: 0)) == [])
        #expect(try await store.query(PostQuery(limit: Int.max, offset: 9)).map(\.id) == [10])
    }

    /// A negative limit or offset is refused with invalidQuery.
    static let negativeWindowsAreInvalid = ContractCheck(
        "negativeWindowsAreInvalid",
        "A negative limit or offset is refused with invalidQuery."
    ) { store, _ async throws in
        let limit = await #expect(throws: PostStoreError.self) { try await store.query(PostQuery(limit: -1)) }
        #expect(limit?.code == .invalidQuery)
        let offset = await #expect(throws: PostStoreError.self) { try await store.query(PostQuery(offset: -5)) }
        #expect(offset?.code == .invalidQuery)
    }

    /// Search follows PostQuery's semantics: every term matches, case-insensitively, code point by code point.
    static let searchFollowsTheDefinedSemantics = ContractCheck(
        "searchFollowsTheDefinedSemantics",
        "Search follows PostQuery's semantics: every term matches, case-insensitively, code point by code point."
    ) { store, run async throws in
        _ = try await upsertTrickyPosts(into: store, run)
        func ids(_ search: String) async throws -> [Int] {
            try await store.query(PostQuery(search: search)).map(\.id)
        }
        #expect(try await ids("").count == SamplePosts.tricky.count)
        #expect(try await ids(" \n\t ").count == SamplePosts.tricky.count)
        #expect(try await ids("EMOJI") == [1])
        #expect(try await ids("😀") == [1])
        #expect(try await ids("party smile") == [1], "terms may match in title and body separately")
        #expect(try await ids("party nothere") == [], "every term must match")
        #expect(try await ids("한국") == [2])
        #expect(try await ids("세") == [2], "a one-character term")
        #expect(try await ids("café") == [3], "precomposed matches precomposed only")
        #expect(try await ids("cafe") == [4], "code points: 'cafe' is a prefix of the decomposed form")
        #expect(try await ids("e\u{301}") == [4])
        #expect(try await ids("100%") == [5])
        #expect(try await ids("of_the") == [5])
        #expect(try await ids("%") == [5])
        #expect(try await ids("_") == [5])
        #expect(try await ids("\"double\"") == [5])
        #expect(try await ids("\\") == [5])
        #expect(try await ids("'); drop table") == [6])
        if run.keepsNULCharacters {
            #expect(try await ids("nul\u{0}in") == [7])
            #expect(try await ids("\u{0}") == [7])
        } else {
            #expect(try await ids("nulin") == [7])
            #expect(try await ids("\u{0}") == [], "no stored text holds one")
        }
        #expect(try await ids("strasse") == [-9])
        #expect(try await ids("STRAßE") == [-9])
        #expect(try await ids("İstanbul") == [-9])
        #expect(try await ids("istanbul") == [], "İ lowercases to i + U+0307")
        #expect(try await ids("min") == [Int.min, Int.max])
    }

    /// Search combines with filters, order and window exactly as PostQuery's reference evaluation does.
    static let searchCombinesWithFiltersOrderAndWindow = ContractCheck(
        "searchCombinesWithFiltersOrderAndWindow",
        "Search combines with filters, order and window exactly as PostQuery's reference evaluation does."
    ) { store, _ async throws in
        let posts = SamplePosts.make(count: 100)
        _ = try await store.upsert(posts)
        let query = PostQuery(userIds: [1, 2, 3, 4], search: "Dolor", sort: .title, limit: 5, offset: 2)
        let expected = try query.evaluate(over: Dictionary(uniqueKeysWithValues: posts.map { ($0.id, $0) }))
        #expect(expected.count == 5)
        #expect(try await store.query(query) == expected)
    }
}
