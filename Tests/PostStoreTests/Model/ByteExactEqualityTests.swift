import Foundation
import PostStore
import Testing

/// The models whose text a store or a server compares byte for byte compare and hash it that way too: Swift's
/// `String ==` takes canonically equivalent text (`"é"` precomposed, `"e\u{301}"` decomposed) for equal.
@Suite struct ByteExactEqualityTests {
    static let composed = "\"caf\u{E9}\""
    static let decomposed = "\"cafe\u{301}\""

    /// Whether `lhs` and `rhs` are unequal and a set keeps both (so the hashes follow `==`), while each equals a copy.
    private static func areTwoValues<Value: Hashable>(_ lhs: Value, _ rhs: Value) -> Bool {
        lhs != rhs && Set([lhs, rhs]).count == 2 && lhs == lhs && Set([lhs, lhs]).count == 1
    }

    @Test func syncStatesDifferingOnlyInTheirETagsNormalizationDiffer() {
        let date = Date(timeIntervalSince1970: 1)
        #expect(
            Self.areTwoValues(
                SyncState(source: "s", etag: Self.composed, syncedAt: date),
                SyncState(source: "s", etag: Self.decomposed, syncedAt: date)
            )
        )
    }

    @Test func syncStatesDifferingOnlyInTheirSourcesNormalizationDiffer() {
        let date = Date(timeIntervalSince1970: 1)
        #expect(
            Self.areTwoValues(
                SyncState(source: Self.composed, syncedAt: date),
                SyncState(source: Self.decomposed, syncedAt: date)
            )
        )
    }

    @Test func syncReportsDifferingOnlyInTheirSourcesNormalizationDiffer() {
        #expect(
            Self.areTwoValues(
                SyncReport(source: Self.composed, fetched: 0, summary: WriteSummary(), pages: 1, duration: .zero),
                SyncReport(source: Self.decomposed, fetched: 0, summary: WriteSummary(), pages: 1, duration: .zero)
            )
        )
    }

    @Test func queriesDifferingOnlyInTheirSearchesNormalizationDiffer() {
        #expect(Self.areTwoValues(PostQuery(search: Self.composed), PostQuery(search: Self.decomposed)))
    }

    /// Every stored property of `PostQuery` counts in `==` and `hash(into:)`. The list of changes names each one, so
    /// a property added to `PostQuery` without a change here fails the test until it is listed (and so checked).
    @Test func queriesCompareEveryField() {
        let base = PostQuery(ids: [1], userIds: [2], search: "s", sort: .title, limit: 3, offset: 4)
        let changes: KeyValuePairs<String, (inout PostQuery) -> Void> = [
            "ids": { $0.ids = nil },
            "userIds": { $0.userIds = [] },
            "searchText": { $0.search = "t" },
            "sort": { $0.sort = .user },
            "limit": { $0.limit = nil },
            "offset": { $0.offset = 0 },
        ]
        let storedProperties = Mirror(reflecting: base).children.compactMap(\.label)
        #expect(storedProperties.sorted() == changes.map(\.key).sorted(), "a stored property has no change listed")
        for (name, change) in changes {
            var changed = base
            change(&changed)
            #expect(Self.areTwoValues(base, changed), "changing \(name) made an equal query")
        }
    }

    /// Every field still counts: changing any one makes another state.
    @Test func syncStatesCompareEveryField() {
        let base = SyncState(source: "s", etag: "e", syncedAt: Date(timeIntervalSince1970: 1))
        let changes: [(inout SyncState) -> Void] = [
            { $0.source = "t" }, { $0.etag = nil }, { $0.syncedAtMilliseconds += 1 }, { $0.fetched += 1 },
            { $0.inserted += 1 }, { $0.updated += 1 }, { $0.unchanged += 1 }, { $0.deleted += 1 },
        ]
        for change in changes {
            var changed = base
            change(&changed)
            #expect(Self.areTwoValues(base, changed), "\(changed)")
        }
    }
}
