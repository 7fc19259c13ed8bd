/// The `Link` header of a paged list, as json-server sends it: `first`, `prev`, `next` and `last`, each the
/// request's own URL with its `_page` value changed, only those that exist, and none when one page holds every
/// post or the page is past the end.
enum PaginationLinks {
    /// The header's value, or `nil` when json-server sends none.
    ///
    /// - Parameters:
    ///   - page: The page asked for (from 1).
    ///   - size: Posts per page; a page of 0 posts has no links.
    ///   - total: How many posts the list holds.
    ///   - request: The request: its origin, path and query make the URLs.
    static func header(page: Int, size: Int, total: Int, request: APIRequest) -> String? {
        let start = (page - 1) * size
        guard size > 0, start < total else { return nil }
        let end = start + size
        let holdsEverything = start == 0 && end >= total
        var links: [(rel: String, page: Int)] = []
        if !holdsEverything { links.append(("first", 1)) }
        if page > 1 { links.append(("prev", page - 1)) }
        if end < total { links.append(("next", page + 1)) }
        if !holdsEverything { links.append(("last", (total + size - 1) / size)) }
        guard !links.isEmpty else { return nil }
        return links.map { "<\(url(of: request, page: $0.page))>; rel=\"\($0.rel)\"" }.joined(separator: ", ")
    }

    /// The request's URL with the value of its (first) `_page` parameter replaced.
    private static func url(of request: APIRequest, page: Int) -> String {
        let parts = (request.query ?? "").split(separator: "&", omittingEmptySubsequences: false)
        var replaced = false
        let query = parts.map { part -> String in
            guard !replaced, part.hasPrefix("_page=") else { return String(part) }
            replaced = true
            return "_page=\(page)"
        }
        return "\(request.origin)\(request.path)?\(query.joined(separator: "&"))"
    }
}
