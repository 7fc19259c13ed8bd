import Foundation
import PostStore

/// The page of a list of posts (`/`, `/posts`, `/users/:id/posts` asked for as HTML): the store's facts, a search
/// and user filter that send the API's own parameters, the table of the window's posts with sorting links, and
/// paging. The region that changes with the store (`#live`) is what the script puts in place when it changes.
struct ListPage {
    let frame: PageFrame
    /// The list's address, its window given (the HTML answer's default window made explicit).
    let address: PageAddress
    /// The list's parameters as the API read them.
    let list: PostListRequest
    /// The window's posts and what the page shows of the store.
    let state: ListPageState
    /// The user of `/users/:id/posts`, `nil` for `/posts`.
    let userOfPath: Int?

    /// The longest start of a body the table shows, in characters.
    static let excerptLength = 100

    private var page: PostPage { state.page }
    private var storeCount: Int { state.storeCount }
    private var lastSync: SyncState? { state.lastSync }

    func render() -> HTMLWriter {
        var html = HTMLWriter()
        frame.begin(&html, title: userOfPath.map { "Posts of user \($0)" } ?? "Posts") { html in
            html.markup(" data-live=\"")
            html.text(String(PostAPI.liveFolder.dropLast()) + address.text)
            html.markup("\"")
            if let revision = page.revision {
                html.markup(" data-revision=\"")
                html.text(revision)
                html.markup("\"")
            }
        }
        html.markup("<h1>")
        html.text(userOfPath.map { "Posts of user \($0)" } ?? "Posts")
        html.markup("</h1>\n")
        filters(&html)
        html.markup("<p id=\"notice\" class=\"notice\" role=\"status\" aria-live=\"polite\"></p>\n<div id=\"live\">\n")
        facts(&html)
        table(&html)
        pager(&html)
        html.markup("</div>\n")
        frame.end(&html)
        return html
    }

    /// The store's count and last sync.
    private func facts(_ html: inout HTMLWriter) {
        html.markup("<dl class=\"facts\">\n<div><dt>Posts in the store</dt><dd>")
        html.text(storeCount.groupedDigits)
        html.markup("</dd></div>\n<div><dt>Last sync</dt><dd>")
        if let lastSync {
            html.markup("<bdi>")
            html.text(lastSync.source)
            html.markup("</bdi>, <time datetime=\"")
            html.text(Self.machineTime(lastSync.syncedAt))
            html.markup("\">")
            html.text(Self.readableTime(lastSync.syncedAt))
            html.markup("</time>: ")
            html.text(
                "\(lastSync.fetched.groupedDigits) fetched, \(lastSync.inserted.groupedDigits) new, "
                    + "\(lastSync.updated.groupedDigits) changed, \(lastSync.deleted.groupedDigits) deleted"
            )
        } else {
            html.markup("never")
        }
        html.markup("</dd></div>\n</dl>\n")
    }

    /// The search and user filter: a form that sends the list's parameters, the window back to its first page.
    private func filters(_ html: inout HTMLWriter) {
        html.markup("<form class=\"filters\" method=\"get\" role=\"search\" action=\"")
        html.text(address.path)
        html.markup(
            "\">\n<div><label for=\"q\">Search titles and bodies</label><input id=\"q\" name=\"q\" type=\"search\" value=\""
        )
        html.text(list.query.search)
        html.markup("\"></div>\n")
        if showsUserBox {
            html.markup(
                """
                <div><label for="userId">User</label><input id="userId" name="userId" class="user" \
                inputmode="numeric" pattern="-?[0-9]*" title="A user id: a whole number." value="
                """
            )
            html.text(address.value("userId") ?? "")
            html.markup("\"></div>\n")
        }
        // The address's other parameters go with the form, so a new search keeps them; its window goes back to
        // the first page.
        for (name, value) in firstPage.parameters where !Self.formNames.contains(name) || Self.carried.contains(name) {
            if name == "userId" && showsUserBox { continue }
            html.markup("<input type=\"hidden\" name=\"")
            html.text(name)
            html.markup("\" value=\"")
            html.text(value)
            html.markup("\">\n")
        }
        html.markup(
            "<input type=\"hidden\" name=\"_page\" value=\"1\">\n<button type=\"submit\">Show</button>\n</form>\n"
        )
        otherFilters(&html)
    }

    /// The parameters of the form's fields, the window and the order, which the page shows otherwise than as filters.
    private static let formNames: Set<String> = ["q", "_page", "_limit", "_start", "_end", "_sort", "_order"]

    /// Those of them a new search keeps: the order and the page's size.
    private static let carried: Set<String> = ["_sort", "_order", "_limit"]

    /// The address at the list's first page, of the same size: a window by `_start` and `_end` becomes one by
    /// `_page` and `_limit`, which new sorts and searches start from.
    private var firstPage: PageAddress {
        guard list.page == nil else { return address.setting("_page", to: "1") }
        return address.setting("_start", to: nil).setting("_end", to: nil)
            .setting("_limit", to: String(list.query.limit ?? PostAPI.pageSize)).setting("_page", to: "1")
    }

    /// Whether the user box shows the list's user filter: on `/posts` with at most one `userId`.
    private var showsUserBox: Bool {
        userOfPath == nil && address.parameters.filter { $0.name == "userId" }.count <= 1
    }

    /// The filters of the address that the form does not show (`title_like`, several users…), and a link
    /// without them: a shared link's filters are never silent.
    private func otherFilters(_ html: inout HTMLWriter) {
        let shown = address.parameters.filter { parameter in
            !Self.formNames.contains(parameter.name) && !(parameter.name == "userId" && showsUserBox)
        }
        guard !shown.isEmpty else { return }
        html.markup("<p class=\"filtered\">Also filtered by ")
        for (index, parameter) in shown.enumerated() {
            if index > 0 { html.markup(", ") }
            html.markup("<code><bdi>")
            html.text(parameter.name + "=" + parameter.value)
            html.markup("</bdi></code>")
        }
        var cleared = firstPage
        cleared.parameters.removeAll { parameter in shown.contains { $0 == parameter } }
        html.markup(" · <a href=\"")
        html.text(cleared.text)
        html.markup("\">Clear these filters</a></p>\n")
    }

    /// The table of the window's posts.
    private func table(_ html: inout HTMLWriter) {
        guard !page.posts.isEmpty else {
            html.markup("<p class=\"empty\">")
            html.text(emptyMessage)
            html.markup("</p>\n")
            return
        }
        html.markup("<table>\n<caption>")
        let first = list.query.offset + 1
        html.text(
            "Posts \(first.groupedDigits)–\((first + page.posts.count - 1).groupedDigits) of \(page.total.groupedDigits)"
        )
        html.markup("</caption>\n<thead><tr>")
        sortableHeader(&html, "Id", field: "id", ascending: .idAscending, descending: .idDescending)
        sortableHeader(&html, "User", field: "userId", ascending: .user, descending: .userDescending)
        sortableHeader(&html, "Title", field: "title", ascending: .title, descending: .titleDescending)
        html.markup("<th scope=\"col\">Body</th></tr></thead>\n<tbody>\n")
        for post in page.posts {
            html.markup("<tr><td class=\"number\" data-label=\"Post\"><a href=\"/posts/")
            html.number(post.id)
            html.markup("\">")
            html.number(post.id)
            html.markup("</a></td><td class=\"number\" data-label=\"User\"><a href=\"/users/")
            html.number(post.userId)
            html.markup("/posts\">")
            html.number(post.userId)
            html.markup("</a></td><td class=\"title\"><a href=\"/posts/")
            html.number(post.id)
            html.markup("\"><bdi>")
            html.prose(post.title.isEmpty ? "(no title)" : Self.shortened(post.title))
            html.markup("</bdi></a></td><td class=\"excerpt\"><bdi>")
            html.text(Self.excerpt(of: post.body))
            html.markup("</bdi></td></tr>\n")
        }
        html.markup("</tbody>\n</table>\n")
    }

    /// Why the window shows no post.
    private var emptyMessage: String {
        if storeCount == 0 { return "The store is empty." }
        if page.total == 0 { return "No post matches." }
        if list.query.limit == 0 { return "The window holds no post (_limit=0)." }
        return "No post here: the list has \(page.total.groupedDigits) posts, "
            + (lastPage.map { "\($0.groupedDigits) pages." } ?? "fewer than this window skips.")
    }

    /// The number of the list's last page, when it pages with `_page`.
    private var lastPage: Int? {
        guard list.page != nil, let size = list.query.limit, size > 0 else { return nil }
        return max(1, (page.total + size - 1) / size)
    }

    /// A column's header: a link that sorts by it, ascending, or descending when it sorts so already.
    private func sortableHeader(
        _ html: inout HTMLWriter,
        _ title: StaticString,
        field: String,
        ascending: PostQuery.Sort,
        descending: PostQuery.Sort
    ) {
        let sort = list.query.sort
        html.markup("<th scope=\"col\"")
        if sort == ascending { html.markup(" aria-sort=\"ascending\"") }
        if sort == descending { html.markup(" aria-sort=\"descending\"") }
        html.markup("><a href=\"")
        let order = sort == ascending ? "desc" : "asc"
        html.text(firstPage.setting("_sort", to: field).setting("_order", to: order).text)
        html.markup("\">")
        html.markup(title)
        if sort == ascending { html.markup(" ▲") }
        if sort == descending { html.markup(" ▼") }
        html.markup("</a></th>")
    }

    /// The links to the previous and next pages: by `_page`, or by `_start` (and `_end`) for such a window.
    private func pager(_ html: inout HTMLWriter) {
        guard let number = list.page, let pages = lastPage else { return startPager(&html) }
        html.markup("<nav class=\"pages\" aria-label=\"Pages\">")
        if number > 1 {
            html.markup("<a rel=\"prev\" href=\"")
            html.text(address.setting("_page", to: String(min(number - 1, pages))).text)
            html.markup("\">← Previous</a>")
        }
        html.markup("<span>")
        html.text(
            number > pages
                ? "Past the last page (\(pages.groupedDigits))"
                : "Page \(number.groupedDigits) of \(pages.groupedDigits)"
        )
        html.markup("</span>")
        if number < pages {
            html.markup("<a rel=\"next\" href=\"")
            html.text(address.setting("_page", to: String(number + 1)).text)
            html.markup("\">Next →</a>")
        }
        html.markup("</nav>\n")
    }

    /// The links to the windows before and after one given by `_start`.
    private func startPager(_ html: inout HTMLWriter) {
        guard let size = list.query.limit, size > 0 else { return }
        let start = list.query.offset
        let moved = { (start: Int) in
            address.setting("_start", to: String(start))
                .setting("_end", to: address.value("_end") == nil ? nil : String(start + size)).text
        }
        guard start > 0 || start + size < page.total else { return }
        html.markup("<nav class=\"pages\" aria-label=\"Pages\">")
        if start > 0 {
            html.markup("<a rel=\"prev\" href=\"")
            html.text(moved(max(0, min(start, page.total) - size)))
            html.markup("\">← Previous</a>")
        }
        if start + size < page.total {
            html.markup("<a rel=\"next\" href=\"")
            html.text(moved(start + size))
            html.markup("\">Next →</a>")
        }
        html.markup("</nav>\n")
    }

    /// The longest title the table shows, in characters; the post's page shows it whole.
    static let titleLength = 200

    /// A title cut at ``titleLength`` characters.
    static func shortened(_ title: String) -> String {
        title.count > titleLength ? title.prefix(titleLength) + "…" : title
    }

    /// The start of a body on one line: runs of white space as one space, cut at ``excerptLength`` characters.
    static func excerpt(of body: String) -> String {
        var excerpt = ""
        var count = 0
        var pendingSpace = false
        for character in body {
            if character.isWhitespace {
                pendingSpace = !excerpt.isEmpty
                continue
            }
            if count + (pendingSpace ? 1 : 0) >= excerptLength { return excerpt + "…" }
            if pendingSpace {
                excerpt.append(" ")
                count += 1
                pendingSpace = false
            }
            excerpt.append(character)
            count += 1
        }
        return excerpt
    }

    /// A time as a `datetime` attribute takes it: `2026-11-29T15:47:00Z`.
    static func machineTime(_ date: Date) -> String {
        date.formatted(.iso8601)
    }

    /// A time as a person reads it, in UTC, to the minute: `2026-11-29 15:47 UTC`.
    static func readableTime(_ date: Date) -> String {
        machineTime(date).prefix(16).replacingOccurrences(of: "T", with: " ") + " UTC"
    }
}
