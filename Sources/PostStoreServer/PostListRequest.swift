import PostStore

/// A `GET /posts` (or `/users/:id/posts`) request's parameters, json-server's conventions, as a ``PostQuery``.
///
/// - `id=` and `userId=` repeat: OR within a field, AND across fields (the nested route's user too).
/// - `title=`, `body=`, and `_gte`, `_lte`, `_ne` or `_like` after any field's name: ``FieldFilter``s, which the
///   server applies to the posts the store selects.
/// - `q=` searches as the store does (``TextSearch``).
/// - `_sort=id|userId|title`, `-field` or `_order=desc` for descending; ties by id ascending.
/// - Windows: `_page` (from 1) with `_limit` (10 by default), or `_start` with `_end` or `_limit`.
/// - `_` (a cache buster jQuery adds) is ignored; any other parameter, and every bad value, is a 400.
struct PostListRequest: Sendable, Equatable {
    /// The query the store answers, its window included.
    var query: PostQuery
    /// The filters the store's query cannot say, applied by the server before the window; AND across filters.
    var filters: [FieldFilter] = []
    /// The page number when the request pages with `_page`: the `Link` header's subject.
    var page: Int?
    /// Whether the request asks for a window (`_page`, `_limit` or `_end`): json-server then sends
    /// `X-Total-Count`.
    var isWindowed: Bool

    /// Whether the list is every post in id order, in a window or not: a copy of it can follow the changes feed.
    var selectsEveryPost: Bool {
        selectsTheWholeStore && query.sort == .idAscending
    }

    /// Whether the list selects every post, in any order: its total is the store's count.
    var selectsTheWholeStore: Bool {
        query.ids == nil && query.userIds == nil && query.search.isEmpty && filters.isEmpty
    }

    /// The parameters a list takes besides the field filters.
    static let parameterNames = ["id", "userId", "q", "_sort", "_order", "_page", "_limit", "_start", "_end"]

    /// Reads a list request's parameters.
    ///
    /// - Parameters:
    ///   - parameters: The query's parameters.
    ///   - userOfPath: The user of `/users/:id/posts`, `nil` for `/posts`.
    ///   - maximumLimit: The largest window `_limit`, `_end` minus `_start`, may ask for.
    /// - Throws: ``APIError`` (400) naming the parameter and what it takes.
    init(_ parameters: QueryParameters, userOfPath: Int?, maximumLimit: Int) throws(APIError) {
        for name in parameters.names where name != "_" && !Self.parameterNames.contains(name) {
            guard let filter = try FieldFilter(name: name, values: parameters.values(name)) else {
                throw .badRequest(Self.unknown(name))
            }
            filters.append(filter)
        }
        query = PostQuery()
        let ids = try parameters.values("id").map { value throws(APIError) in try Self.integer(value, "id") }
        if !ids.isEmpty { query.ids = Set(ids) }
        var users = try parameters.values("userId").map { value throws(APIError) in try Self.integer(value, "userId") }
        if let userOfPath { users = users.isEmpty || users.contains(userOfPath) ? [userOfPath] : [] }
        if !users.isEmpty || userOfPath != nil { query.userIds = Set(users) }
        query.search = try parameters.value("q") ?? ""
        query.sort = try Self.sort(field: parameters.value("_sort"), order: parameters.value("_order"))

        let page = try parameters.value("_page").map { value throws(APIError) in
            try Self.integer(value, "_page", from: 1)
        }
        let limit = try parameters.value("_limit").map { value throws(APIError) in
            try Self.integer(value, "_limit", from: 0, to: maximumLimit)
        }
        let start = try parameters.value("_start").map { value throws(APIError) in
            try Self.integer(value, "_start", from: 0)
        }
        let end = try parameters.value("_end").map { value throws(APIError) in try Self.integer(value, "_end", from: 0)
        }
        self.page = page
        isWindowed = page != nil || limit != nil || end != nil
        if let page {
            guard start == nil, end == nil else {
                throw .badRequest(
                    "_page does not combine with _start or _end; use _page with _limit, or _start with _end."
                )
            }
            let size = limit ?? min(10, maximumLimit)
            let (offset, overflow) = (page - 1).multipliedReportingOverflow(by: size)
            guard !overflow else { throw .badRequest("_page \(page) of \(size) posts is past any store's end.") }
            query.limit = size
            query.offset = offset
        } else if let end {
            guard limit == nil else { throw .badRequest("Give _end or _limit with _start, not both.") }
            let start = start ?? 0
            let size = max(0, end - start)
            guard size <= maximumLimit else {
                throw .badRequest(
                    "_start \(start) to _end \(end) asks for \(size) posts; at most \(maximumLimit) at once."
                )
            }
            query.offset = start
            query.limit = size
        } else {
            query.offset = start ?? 0
            query.limit = limit
        }
    }

    private static func unknown(_ name: String) -> String {
        if name == "_embed" || name == "_expand" {
            return "The parameter \(name) is not supported: this API serves posts alone."
        }
        return "Unknown parameter \(name); a list takes id, userId, title and body (each also with _gte, _lte, _ne or "
            + "_like after it), q, _sort, _order, _page, _limit, _start and _end."
    }

    /// A whole number in a range, or a 400 naming the parameter.
    static func integer(
        _ text: String,
        _ name: String,
        from low: Int = .min,
        to high: Int = .max
    ) throws(APIError)
        -> Int
    {
        guard let value = Int(text) else {
            let digits = text.first == "-" || text.first == "+" ? text.dropFirst() : Substring(text)
            guard !digits.isEmpty, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber) else {
                throw .badRequest("The parameter \(name) must be a whole number (got \"\(text)\").")
            }
            throw .badRequest("The parameter \(name) is out of range: whole numbers fit in 64 bits (got \(text)).")
        }
        guard value >= low, value <= high else {
            let range = high == .max ? "\(low) or more" : "from \(low) to \(high)"
            throw .badRequest("The parameter \(name) must be \(range) (got \(value)).")
        }
        return value
    }

    private static func sort(field: String?, order: String?) throws(APIError) -> PostQuery.Sort {
        var name = field ?? "id"
        var descending = false
        if name.hasPrefix("-") {
            name.removeFirst()
            descending = true
        }
        if let order {
            switch order.lowercased() {
            case "asc":
                guard !descending else {
                    throw .badRequest(
                        "_sort=\(field ?? "") is descending but _order=\(order) says ascending; give one."
                    )
                }
            case "desc": descending = true
            default: throw .badRequest("The parameter _order must be asc or desc (got \"\(order)\").")
            }
        }
        switch (name, descending) {
        case ("id", false): return .idAscending
        case ("id", true): return .idDescending
        case ("userId", false): return .user
        case ("userId", true): return .userDescending
        case ("title", false): return .title
        case ("title", true): return .titleDescending
        default:
            throw .badRequest(
                "The parameter _sort must be id, userId or title, with - before it for descending (got \"\(field ?? "")\")."
            )
        }
    }
}
