import Foundation
import HTTPTypes
import PostStore
import PostStoreTestSupport
import Testing

@testable import PostStorePages
@testable import PostStoreServer

/// The pages for people, without a socket: which requests get one, what they show, how they treat hostile text,
/// and which writes the pages' origin rule refuses. `BrowserTests` (scripts/ci/browser-tests.py) drives them in
/// Chromium.
@Suite struct PostPagesTests {
    private static let posts = (1...120).map {
        Post(userId: ($0 - 1) / 10 + 1, id: $0, title: "title \($0)", body: "body \($0)\nsecond line")
    }

    /// What Chromium sends when the address bar opens a page.
    private static let browserAccept =
        "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8"

    private func api(_ posts: [Post] = posts, writes: Bool = false, writingOrigin: String? = nil) -> PostAPI {
        PostAPI(
            store: InMemoryPostStore(posts: posts),
            allowsWrites: writes,
            writingOrigin: writingOrigin,
            storeName: "memory:",
            maximumLimit: 100
        )
    }

    private func get(_ api: PostAPI, _ target: String, accept: String? = browserAccept) async -> APIResponse {
        let parts = target.split(separator: "?", maxSplits: 1).map(String.init)
        var headers = HTTPFields()
        if let accept { headers[.accept] = accept }
        return await api.respond(
            to: APIRequest(method: .get, path: parts[0], query: parts.count > 1 ? parts[1] : nil, headers: headers)
        )
    }

    private func text(_ response: APIResponse) -> String {
        String(decoding: response.body, as: UTF8.self)
    }

    @Test(arguments: [
        (browserAccept, true),
        ("text/html", true),
        ("*/*", false),
        ("application/json", false),
        ("application/json, text/html", false),
        ("text/html;q=0.5, application/json;q=0.4", true),
        ("text/html;q=0", false),
        ("text/event-stream", false),
    ])
    func aPageIsWhatAcceptPrefersToJSON(accept: String, isPage: Bool) {
        #expect(PostAPI.prefersHTML(accept) == isPage)
    }

    @Test func theHomePageShowsTheStoreAndItsFirstFiftyPosts() async throws {
        let response = await get(api(), "/")
        let html = text(response)
        #expect(response.status == .ok)
        #expect(response.headers[.contentType] == "text/html; charset=utf-8")
        #expect(response.headers[.contentSecurityPolicy]?.contains("script-src 'self'") == true)
        #expect(response.headers[.contentSecurityPolicy]?.contains("unsafe") == false)
        #expect(html.contains("<bdi>memory:</bdi>"))
        #expect(html.contains("<dt>Posts in the store</dt><dd>120</dd>"))
        #expect(html.contains("<dt>Last sync</dt><dd>never</dd>"))
        #expect(html.contains("Posts 1–50 of 120"))
        #expect(html.components(separatedBy: "<tr><td").count - 1 == 50)
        #expect(html.contains("data-live=\"/_page/live/posts?_page=1&amp;_limit=50\""))
        #expect(html.contains("<a rel=\"next\" href=\"/posts?_page=2&amp;_limit=50\">"))
        #expect(!html.contains("rel=\"prev\""))
        #expect(html.contains("Page 1 of 3"))
    }

    @Test func theLastSyncIsShownWithItsSourceTimeAndCounts() async throws {
        let api = api()
        let synced = Date(timeIntervalSince1970: 1_795_000_000)
        let state = SyncState(
            source: "<b>feed</b>",
            syncedAt: synced,
            fetched: 1_200,
            inserted: 3,
            updated: 2,
            deleted: 1
        )
        try await api.store.saveSyncState(state)
        #expect(
            text(await get(api, "/")).contains(
                "<dt>Last sync</dt><dd><bdi>&lt;b&gt;feed&lt;/b&gt;</bdi>, <time datetime=\"2026-11-18T11:06:40Z\">"
                    + "2026-11-18 11:06 UTC</time>: 1,200 fetched, 3 new, 2 changed, 1 deleted</dd>"
            )
        )
    }

    @Test func theListRoutesAnswerAPageToABrowserAndJSONToAProgram() async throws {
        let api = api()
        let page = await get(api, "/posts?userId=2&_sort=title&_order=desc&_page=1&_limit=50")
        #expect(page.headers[.contentType] == "text/html; charset=utf-8")
        #expect(text(page).contains("Posts 1–10 of 10"))
        #expect(text(page).contains("aria-sort=\"descending\""))
        let rows = text(page).components(separatedBy: "<td class=\"title\">").dropFirst().map { $0.prefix(40) }
        #expect(rows.first?.contains("title 20") == true && rows.last?.contains("title 11") == true)
        let json = await get(api, "/posts?userId=2&_sort=title&_order=desc", accept: "*/*")
        #expect(json.headers[.contentType] == "application/json; charset=utf-8")
        let nested = await get(api, "/users/3/posts?_page=1&_limit=50")
        #expect(text(nested).contains("<h1>Posts of user 3</h1>") && text(nested).contains("Posts 1–10 of 10"))
        #expect(text(nested).contains("<dt>Posts in the store</dt><dd>120</dd>"))
    }

    @Test func aPagePastTheEndLeadsBackToTheLastPage() async throws {
        let html = text(await get(api(), "/posts?_page=99&_limit=10"))
        #expect(html.contains("Past the last page (12)"))
        #expect(html.contains("<a rel=\"prev\" href=\"/posts?_page=12&amp;_limit=10\">"))
        #expect(!html.contains("rel=\"next\""))
        #expect(html.contains("No post here: the list has 120 posts, 12 pages."))
    }

    @Test(arguments: [
        ("/posts?_page=2", "/posts?_page=2&_limit=50"),
        ("/posts?_start=10", "/posts?_start=10&_limit=50"),
        ("/posts?_limit=20&q=title", "/posts?_limit=20&q=title&_page=1"),
        ("/users/2/posts?_page=", "/users/2/posts?_page=1&_limit=50"),
        ("/posts?userId=2", "/posts?userId=2&_page=1&_limit=50"),
    ])
    func aWindowGivenInPartIsCompletedInTheAddress(target: String, location: String) async throws {
        let response = await get(api(), target)
        #expect(response.status == .seeOther && response.headers[.location] == location)
    }

    @Test func aWindowByStartSortsAndPagesByStart() async throws {
        let html = text(await get(api(), "/posts?_start=10&_end=20"))
        #expect(html.contains("<a href=\"/posts?_limit=10&amp;_page=1&amp;_sort=title&amp;_order=asc\">Title</a>"))
        #expect(html.contains("<a rel=\"prev\" href=\"/posts?_start=0&amp;_end=10\">"))
        #expect(html.contains("<a rel=\"next\" href=\"/posts?_start=20&amp;_end=30\">"))
        #expect(html.contains("<input type=\"hidden\" name=\"_limit\" value=\"10\">"))
    }

    @Test func anEmptyWindowSaysWhy() async throws {
        #expect(text(await get(api(), "/posts?_limit=0&_page=1")).contains("The window holds no post (_limit=0)."))
        #expect(text(await get(api(), "/posts?userId=99&_page=1&_limit=50")).contains("No post matches."))
        #expect(text(await get(api([]), "/")).contains("The store is empty."))
    }

    @Test func filtersTheFormDoesNotShowAreListedAndKeptByANewSearch() async throws {
        let html = text(await get(api(), "/posts?title_like=1&userId=1&userId=2&_sort=title&_limit=20&_page=3"))
        #expect(html.contains("value=\"\"></div>"), "the user box is empty: it cannot show two users")
        #expect(
            html.contains("Also filtered by <code><bdi>title_like=1</bdi></code>, <code><bdi>userId=1</bdi></code>")
        )
        #expect(html.contains("<a href=\"/posts?_sort=title&amp;_limit=20&amp;_page=1\">Clear these filters</a>"))
        for (name, value) in [
            ("title_like", "1"), ("userId", "1"), ("userId", "2"), ("_sort", "title"), ("_limit", "20"),
        ] {
            #expect(html.contains("<input type=\"hidden\" name=\"\(name)\" value=\"\(value)\">"))
        }
        #expect(!html.contains("name=\"_page\" value=\"3\""), "a new search starts at the first page")
        let one = text(await get(api(), "/posts?userId=2&_limit=20&_page=1"))
        #expect(one.contains("value=\"2\"></div>") && !one.contains("Also filtered by"))
    }

    /// A form cannot hold a control character or a CR as it is: the page says that the fields left alone keep
    /// their text (the script sends only the edited ones).
    @Test func aPostAFormCannotHoldIsEditedFieldByField() async throws {
        let posts = [
            Post(userId: 1, id: 1, title: "bell \u{7}", body: "plain"),
            Post(userId: 1, id: 2, title: "plain", body: "one\r\ntwo"),
            Post(userId: 1, id: 3, title: "plain", body: "one\ntwo\tthree"),
        ]
        let api = api(posts, writes: true)
        for (id, hint) in [(1, true), (2, true), (3, false)] {
            let html = text(await get(api, "/posts/\(id)"))
            #expect(html.contains("class=\"hint\"") == hint, "post \(id)")
            #expect(html.contains("<a href=\"/posts\">All posts</a>"), "post \(id)")
        }
    }

    @Test func theSearchFormsEmptyFieldsRedirectToTheListsOwnLink() async throws {
        let response = await get(api(), "/posts?q=&userId=&_limit=50&_page=1")
        #expect(response.status == .seeOther)
        #expect(response.headers[.location] == "/posts?_limit=50&_page=1")
        let search = await get(api(), "/posts?q=title+11&_page=1&_limit=50")
        #expect(text(search).contains("value=\"title 11\""))
        #expect(text(search).contains("Posts 1–10 of 10") == false)
    }

    @Test func aBadParameterIsThePagesOwnErrorForABrowserAndJSONForAProgram() async throws {
        let page = await get(api(), "/posts?_page=0")
        #expect(page.status == .badRequest && page.headers[.contentType] == "text/html; charset=utf-8")
        #expect(text(page).contains("<h1>400 Bad Request</h1>") && text(page).contains("_page"))
        let json = await get(api(), "/posts?_page=0", accept: nil)
        #expect(json.status == .badRequest && text(json).hasPrefix("{\"error\":"))
        // The home page is a page whatever the request accepts, and so are its refusals.
        let home = await get(api(), "/?_page=0", accept: nil)
        #expect(home.status == .badRequest && home.headers[.contentType] == "text/html; charset=utf-8")
        let missing = await get(api(), "/posts/999")
        #expect(missing.status == .notFound && text(missing).contains("There is no post 999."))
        let refused = api().refusal(of: .get, on: "/nowhere", accepting: Self.browserAccept)
        #expect(refused?.status == .notFound && refused?.headers[.contentType] == "text/html; charset=utf-8")
    }

    @Test func aPostsPageShowsItWholeWithTheETagOfItsJSON() async throws {
        let api = api(writes: true)
        let page = await get(api, "/posts/7")
        let json = await get(api, "/posts/7", accept: "application/json")
        let html = text(page)
        #expect(html.contains("<h1><bdi>title 7</bdi></h1>"))
        #expect(html.contains("<div class=\"body\"><bdi>body 7\nsecond line</bdi></div>"))
        let tag = try #require(json.headers[.eTag]).replacingOccurrences(of: "\"", with: "&quot;")
        #expect(html.contains("data-etag=\"\(tag)\""))
        #expect(html.contains("<form class=\"edit\" hidden"))
        let readOnly = await get(self.api(), "/posts/7")
        #expect(!text(readOnly).contains("<form class=\"edit\""))
    }

    /// Titles and bodies written to break out of their element: every one shows as text.
    @Test func hostileTextIsShownAsText() async throws {
        let hostile = [
            "<script>alert(1)</script>",
            "\"><img src=x onerror=alert(2)>",
            "javascript:alert(3)",
            "'; alert(4); '",
            "\u{202E}gnp.exe",
            "nul \u{0} and bell \u{7} and delete \u{7F}",
            "</textarea><script>alert(5)</script>",
        ]
        let posts = hostile.enumerated().map { Post(userId: 1, id: $0 + 1, title: $1, body: $1) }
        let api = api(posts, writes: true)
        var pages = [await get(api, "/"), await get(api, "/posts?q=%3Cscript%3E&_page=1&_limit=50")]
        for id in posts.map(\.id) { pages.append(await get(api, "/posts/\(id)")) }
        for page in pages {
            let html = text(page)
            #expect(page.status == .ok)
            #expect(!html.contains("<script>alert") && !html.contains("<img") && !html.contains("</textarea><script"))
            #expect(!html.contains("href=\"javascript:"))
            #expect(!html.unicodeScalars.contains { $0.value < 0x20 && ![0x09, 0x0A, 0x0D].contains($0.value) })
        }
        let home = text(pages[0])
        #expect(home.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(home.contains("&quot;&gt;&lt;img src=x onerror=alert(2)&gt;"))
        #expect(home.contains("<bdi>\u{202E}gnp.exe</bdi>"))
        #expect(home.contains("nul \u{2400} and bell \u{2407} and delete \u{2421}"))
        #expect(text(pages[1]).contains("value=\"&lt;script&gt;\""))
    }

    @Test func aMegabyteBodyIsShownWholeOnItsPageAndCutInTheList() async throws {
        let body = String(repeating: "a<b ", count: 262_144)
        let api = api([Post(userId: 1, id: 1, title: "long", body: body)])
        let page = text(await get(api, "/posts/1"))
        #expect(page.components(separatedBy: "a&lt;b ").count - 1 == 262_144)
        let list = text(await get(api, "/"))
        #expect(
            list.contains(
                "<td class=\"excerpt\"><bdi>" + String(repeating: "a&lt;b ", count: 25).dropLast() + "…</bdi>"
            )
        )
        #expect(list.utf8.count < 50_000)
    }

    @Test func aLongWordIsBrokenForTheBrowserAndALongTitleCutInTheList() async throws {
        let word = String(repeating: "x", count: 1_000_000)
        let posts = [Post(userId: 1, id: 1, title: String(repeating: "t", count: 5_000), body: word)]
        let api = api(posts)
        let page = text(await get(api, "/posts/1"))
        let shown = page.components(separatedBy: "<div class=\"body\"><bdi>")[1].components(separatedBy: "</bdi>")[0]
        let pieces = shown.components(separatedBy: "<wbr>")
        #expect(pieces.joined() == word && pieces.allSatisfy { $0.count <= HTMLWriter.wordBreakRun })
        #expect(!page.contains("wrap=\"off\""), "a server without writes has no form")
        #expect(text(await get(self.api(posts, writes: true), "/posts/1")).contains("rows=\"8\" wrap=\"off\">"))
        #expect(!text(await get(self.api(writes: true), "/posts/1")).contains("wrap=\"off\""))
        let list = text(await get(api, "/"))
        #expect(list.contains("><bdi>" + String(repeating: "t", count: 200) + "…</bdi>"))
    }

    @Test func theStyleSheetAndScriptAreServedFromTheBinaryForAYear() async throws {
        for asset in [PageAsset.style, PageAsset.script] {
            let response = await get(api(), asset.path, accept: "*/*")
            #expect(response.status == .ok && response.body == asset.bytes)
            #expect(response.headers[.contentType] == asset.contentType)
            #expect(response.headers[.cacheControl] == "public, max-age=31536000, immutable")
        }
        #expect(await get(api(), "/_page/page.0000.js", accept: "*/*").status == .notFound)
        let html = text(await get(api(), "/"))
        #expect(html.contains("href=\"\(PageAsset.style.path)\"") && html.contains("src=\"\(PageAsset.script.path)\""))
        #expect(!html.contains("<script>") && !html.contains("style=\""))
    }

    /// The whole page — HTML, style sheet and script — of 50 posts stays under 50 KB.
    @Test func aPageOfFiftyPostsWeighsUnderFiftyKilobytes() async throws {
        let posts = (1...50).map {
            Post(
                userId: $0,
                id: $0,
                title: String(repeating: "title ", count: 12),
                body: String(repeating: "body ", count: 60)
            )
        }
        let html = await get(api(posts), "/")
        let weight = html.body.count + PageAsset.style.bytes.count + PageAsset.script.bytes.count
        #expect(weight < 50_000, "\(weight) bytes")
    }

    @Test(arguments: [
        (nil, nil, nil, HTTPResponse.Status.ok),
        ("http://127.0.0.1", nil, nil, .ok),
        ("https://evil.example", nil, nil, .forbidden),
        ("null", nil, nil, .forbidden),
        (nil, "cross-site", nil, .forbidden),
        ("http://localhost:5173", nil, "http://localhost:5173", .ok),
        ("https://evil.example", nil, "*", .ok),
    ])
    func writesFromAnotherOriginAreRefused(
        origin: String?,
        site: String?,
        allowed: String?,
        status: HTTPResponse.Status
    )
        async throws
    {
        let api = api(writes: true, writingOrigin: allowed)
        var headers = HTTPFields()
        if let origin { headers[.origin] = origin }
        if let site { headers[.secFetchSite] = site }
        let body = Array(#"{"userId": 1, "title": "changed", "body": "changed"}"#.utf8)
        let response = await api.respond(to: APIRequest(method: .put, path: "/posts/1", headers: headers, body: body))
        #expect(response.status == status, "\(text(response))")
        let stored = try await api.store.post(id: 1)
        #expect((stored?.title == "changed") == (status == .ok))
    }

    @Test(arguments: [
        ("", ""),
        ("a  b\n\nc", "a b c"),
        ("  lead", "lead"),
        (String(repeating: "x", count: 100), String(repeating: "x", count: 100)),
        (String(repeating: "x", count: 101), String(repeating: "x", count: 100) + "…"),
        (String(repeating: "é", count: 150), String(repeating: "é", count: 100) + "…"),
        (String(repeating: "abc ", count: 30), String(repeating: "abc ", count: 25).dropLast() + "…"),
    ])
    func anExcerptIsTheBodysStartOnOneLine(body: String, excerpt: String) {
        #expect(PageText.excerpt(of: body) == excerpt)
    }
}
