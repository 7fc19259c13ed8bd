import PostStore
import Testing

@testable import PostStoreServer

/// json-server's field filters, with its meanings (and this server's `_like`: a case-insensitive substring).
@Suite struct FieldFilterTests {
    private static let posts = [
        Post(userId: 1, id: 1, title: "sunt aut facere", body: "quia et suscipit"),
        Post(userId: 1, id: 2, title: "qui est esse", body: "est rerum tempore"),
        Post(userId: 2, id: 11, title: "Ça va", body: "a.b*c"),
        Post(userId: 3, id: 21, title: "qui", body: ""),
    ]

    /// The ids of the posts a parameter keeps.
    private func kept(_ name: String, _ values: String...) throws -> [Int] {
        let filter = try #require(try FieldFilter(name: name, values: values))
        return Self.posts.filter(filter.admits).map(\.id)
    }

    @Test func equalityIsByteForByteAndRepeatsAreOr() throws {
        #expect(try kept("title", "qui") == [21])
        #expect(try kept("title", "qui", "Ça va") == [11, 21])
        #expect(try kept("title", "QUI") == [])
        // The same text in another normalization is another text.
        #expect(try kept("title", "C\u{327}a va") == [])
        #expect(try kept("body", "") == [21])
        #expect(try kept("id", "2") == [2])
    }

    @Test func notEqualKeepsWhatDiffersFromEveryValue() throws {
        #expect(try kept("userId_ne", "1") == [11, 21])
        #expect(try kept("userId_ne", "1", "2") == [21])
        #expect(try kept("title_ne", "qui") == [1, 2, 11])
    }

    @Test func rangesCompareNumbersByValueAndTextByCodePoint() throws {
        #expect(try kept("id_gte", "11") == [11, 21])
        #expect(try kept("id_lte", "2") == [1, 2])
        // Repeats are OR, as in json-server: at least one of the bounds holds.
        #expect(try kept("id_gte", "21", "2") == [2, 11, 21])
        // "qui" < "qui est esse" < "sunt aut facere" < "Ça va" (U+00C7 after every ASCII letter).
        #expect(try kept("title_gte", "qui est") == [1, 2, 11])
        #expect(try kept("title_lte", "qui") == [21])
    }

    @Test func likeIsACaseInsensitiveSubstringWhosePatternCharactersAreLiteral() throws {
        #expect(try kept("title_like", "QUI") == [2, 21])
        #expect(try kept("body_like", "et s") == [1])
        #expect(try kept("body_like", "a.b*c") == [11])
        #expect(try kept("body_like", "a.c") == [])
        #expect(try kept("title_like", "ça") == [11])
        #expect(try kept("id_like", "1") == [1, 11, 21])
        #expect(try kept("title_like", "") == [1, 2, 11, 21])
    }

    @Test func namesThatAreNotAFieldAndAComparisonAreNotFilters() throws {
        for name in ["title_eq", "_like", "q", "userid", "id_like_like", "titles"] {
            #expect(try FieldFilter(name: name, values: ["1"]) == nil, "\(name)")
        }
    }

    @Test func aNumberFilterNeedsWholeNumbers() {
        let error = #expect(throws: APIError.self) { try FieldFilter(name: "userId_lte", values: ["1", "two"]) }
        #expect(error?.message.contains("userId_lte must be a whole number (got \"two\")") == true)
        #expect((try? FieldFilter(name: "userId_like", values: ["two"])) != nil)
    }
}
