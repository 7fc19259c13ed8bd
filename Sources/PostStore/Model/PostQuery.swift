/// What to read from a store: filters, a text search, an order and a window.
///
/// Every engine answers a query the same way; the semantics are defined here once:
///
/// 1. **Filters.** `ids` keeps posts whose id is in the set, `userIds` posts whose user is in the set. `nil` means
///    "no filter"; an empty set matches nothing. Filters and the search combine with AND.
/// 2. **Search.** See ``TextSearch``: the text is split on whitespace into terms; a post matches when every term,
///    on its own, occurs as a substring of its title or of its body, after both sides are lowercased with Swift's
///    `lowercased()`. Substrings are compared by Unicode code points (no normalization), and an empty or
///    all-whitespace search matches everything.
/// 3. **Order.** ``Sort``; ties are always broken by id ascending, so the order is total and stable.
/// 4. **Window.** `offset` posts are skipped, then at most `limit` are returned (`nil`: no limit). Both apply after
///    sorting and must not be negative; either may be as large as `Int.max` (an engine must not compute
///    `offset + limit` unguarded: it overflows).
///
/// ``evaluate(over:)`` is this definition as code, for engines written elsewhere (with ``validate()``,
/// ``window(of:)`` and ``Sort/areInIncreasingOrder(_:_:)``).
///
/// For example, the second page of ten of user 3's posts mentioning "dolor", newest id first:
///
/// ```swift
/// let page = try await store.query(
///     PostQuery(userIds: [3], search: "dolor", sort: .idDescending, limit: 10, offset: 10)
/// )
/// ```
public struct PostQuery: Sendable, Hashable {
    /// The order of a query's results.
    public enum Sort: String, Sendable, Hashable, CaseIterable, Codable {
        /// By id, smallest first. The default.
        case idAscending
        /// By id, largest first.
        case idDescending
        /// By title in Unicode code point order (byte order of UTF-8, as SQLite's `BINARY` collation), then by id.
        case title
        /// By title, largest first (the reverse of ``title``), then by id, smallest first.
        case titleDescending
        /// By user id, then by id.
        case user
        /// By user id, largest first, then by id, smallest first.
        case userDescending
    }

    /// Keep only posts with these ids; `nil` keeps every id.
    public var ids: Set<Int>?

    /// Keep only posts by these users; `nil` keeps every user.
    public var userIds: Set<Int>?

    /// A text search, see ``TextSearch``; the empty string matches everything.
    ///
    /// Two queries whose searches differ only in normalization (`"é"` precomposed, `"e\u{301}"` decomposed) are
    /// different queries, as they select different posts: the search text is compared byte for byte, as the search
    /// itself compares text.
    public var search: String {
        get { searchText.value }
        set { searchText = ByteExactString(newValue) }
    }

    /// ``search``, stored so that the synthesized `==` and `hash(into:)` compare it byte for byte.
    private var searchText: ByteExactString

    /// The order of the results.
    public var sort: Sort

    /// The most posts to return; `nil` returns all. Must not be negative; may be `Int.max`.
    public var limit: Int?

    /// How many posts to skip after sorting. Must not be negative; may be `Int.max`.
    public var offset: Int

    /// Creates a query; with no arguments it returns every post in id order.
    ///
    /// - Parameters:
    ///   - ids: Keep only posts with these ids; `nil` keeps every id.
    ///   - userIds: Keep only posts by these users; `nil` keeps every user.
    ///   - search: A text search; empty matches everything.
    ///   - sort: The order of the results.
    ///   - limit: The most posts to return; `nil` returns all.
    ///   - offset: How many posts to skip after sorting.
    public init(
        ids: Set<Int>? = nil,
        userIds: Set<Int>? = nil,
        search: String = "",
        sort: Sort = .idAscending,
        limit: Int? = nil,
        offset: Int = 0
    ) {
        self.ids = ids
        self.userIds = userIds
        self.searchText = ByteExactString(search)
        self.sort = sort
        self.limit = limit
        self.offset = offset
    }

    /// A query that returns every post in id order.
    public static let all = PostQuery()
}
