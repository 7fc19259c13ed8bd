package import PostStore
import PostStoreEngines

/// The page of a list of posts (`/`, `/posts`, `/users/:id/posts` asked for as HTML): the store's facts, a search
/// and user filter that send the API's own parameters, the table of the window's posts with sorting links, and
/// paging. The region that changes with the store (`#live`) is what the script puts in place when it changes.
package struct ListPage {
    let frame: PageFrame
    /// The list's address, its window given (the HTML answer's default window made explicit).
    let address: PageAddress
    /// The list's query as the API read it.
    let query: PostQuery
    /// The page number the address gives (`_page`), if any.
    let pageNumber: Int?
    /// The window's posts and what the page shows of the store.
    let state: ListPageState
    /// The user of `/users/:id/posts`, `nil` for `/posts`.
    let userOfPath: Int?

    /// Creates the value from its parts.
    package init(
        frame: PageFrame,
        address: PageAddress,
        query: PostQuery,
        pageNumber: Int?,
        state: ListPageState,
        userOfPath: Int?
    ) {
        self.frame = frame
        self.address = address
        self.query = query
        self.pageNumber = pageNumber
        self.state = state
        self.userOfPath = userOfPath
    }

    /// How many posts a list page shows when its address gives no window.
    package static let pageSize = 50

    /// Where a list page's script follows the page: this folder, then the list's address (``ListPageState``).
    package static let liveFolder = "/_page/live/"

    private var page: PostPage { state.page }
    private var storeCount: Int { state.storeCount }
    private var lastSync: SyncState? { state.lastSync }

    package func render() -> HTMLWriter {
        var html = HTMLWriter()
        frame.begin(&html, title: userOfPath.map { "Posts of user \($0)" } ?? "Posts") { html in
            html.markup(" data-live=\"")
            html.text(String(Self.liveFolder.dropLast()) + address.text)
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
            html.text(PageText.machineTime(lastSync.syncedAt))
            html.markup("\">")
            html.text(PageText.readableTime(lastSync.syncedAt))
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
        html.text(query.search)
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
        for (name, value) in firstPage.parameters where Self.carried.contains(name) || isOtherFilter(name) {
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
        guard pageNumber == nil else { return address.setting("_page", to: "1") }
        return address.setting("_start", to: nil).setting("_end", to: nil)
            .setting("_limit", to: String(query.limit ?? Self.pageSize)).setting("_page", to: "1")
    }

    /// Whether a parameter is a filter that the form's fields do not show (`title_like`, a second user…).
    private func isOtherFilter(_ name: String) -> Bool {
        !Self.formNames.contains(name) && !(name == "userId" && showsUserBox)
    }

    /// Whether the user box shows the list's user filter: on `/posts` with at most one `userId`.
    private var showsUserBox: Bool {
        userOfPath == nil && address.parameters.filter { $0.name == "userId" }.count <= 1
    }

    /// The filters of the address that the form does not show (`title_like`, several users…), and a link
    /// without them: a shared link's filters are never silent.
    private func otherFilters(_ html: inout HTMLWriter) {
        let shown = address.parameters.filter { isOtherFilter($0.name) }
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
        let first = query.offset + 1
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
            html.prose(post.title.isEmpty ? "(no title)" : PageText.shortened(post.title))
            html.markup("</bdi></a></td><td class=\"excerpt\"><bdi>")
            html.text(PageText.excerpt(of: post.body))
            html.markup("</bdi></td></tr>\n")
        }
        html.markup("</tbody>\n</table>\n")
    }

    /// Why the window shows no post.
    private var emptyMessage: String {
        if storeCount == 0 { return "The store is empty." }
        if page.total == 0 { return "No post matches." }
        if query.limit == 0 { return "The window holds no post (_limit=0)." }
        return "No post here: the list has \(page.total.groupedDigits) posts, "
            + (lastPage.map { "\($0.groupedDigits) pages." } ?? "fewer than this window skips.")
    }

    /// The number of the list's last page, when it pages with `_page`.
    private var lastPage: Int? {
        guard pageNumber != nil, let size = query.limit, size > 0 else { return nil }
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
        let sort = query.sort
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

    /// The links to the windows before and after this one, and where it lies among the list's pages.
    private func pager(_ html: inout HTMLWriter) {
        guard let (previous, position, next) = neighbours else { return }
        html.markup("<nav class=\"pages\" aria-label=\"Pages\">")
        if let previous {
            html.markup("<a rel=\"prev\" href=\"")
            html.text(previous.text)
            html.markup("\">← Previous</a>")
        }
        if let position {
            html.markup("<span>")
            html.text(position)
            html.markup("</span>")
        }
        if let next {
            html.markup("<a rel=\"next\" href=\"")
            html.text(next.text)
            html.markup("\">Next →</a>")
        }
        html.markup("</nav>\n")
    }

    /// The windows before and after this one (by `_page`, or by `_start` and `_end` for such a window) and, by
    /// `_page`, where it lies; `nil` when there is nothing to show.
    private var neighbours: (previous: PageAddress?, position: String?, next: PageAddress?)? {
        if let number = pageNumber, let pages = lastPage {
            return (
                number > 1 ? address.setting("_page", to: String(min(number - 1, pages))) : nil,
                number > pages
                    ? "Past the last page (\(pages.groupedDigits))"
                    : "Page \(number.groupedDigits) of \(pages.groupedDigits)",
                number < pages ? address.setting("_page", to: String(number + 1)) : nil
            )
        }
        guard let size = query.limit, size > 0 else { return nil }
        let start = query.offset
        let moved = { (start: Int) in
            address.setting("_start", to: String(start))
                .setting("_end", to: address.value("_end") == nil ? nil : String(start + size))
        }
        let previous = start > 0 ? moved(max(0, min(start, page.total) - size)) : nil
        let next = start + size < page.total ? moved(start + size) : nil
        return previous == nil && next == nil ? nil : (previous, nil, next)
    }
}
