import PostStore

/// A file the pages load (their style sheet, their script, their icon), a real file in `Resources/` compiled
/// into the module as its bytes (`.embedInCode`, as the migrations are): nothing is read from disk at run time or
/// fetched from another origin. Its path holds a digest of its bytes, so that a browser may keep it for a year and
/// still never run an old script against a new page.
package struct PageAsset: Sendable {
    /// The bytes served.
    package let bytes: [UInt8]
    /// The `Content-Type`.
    package let contentType: String
    /// Where it is served: `/_page/NAME.DIGEST.EXTENSION`.
    let path: String

    private init(_ bytes: [UInt8], name: String, fileExtension: String, contentType: String) {
        self.bytes = bytes
        self.contentType = contentType
        var hasher = StableHasher()
        hasher.combine(bytes: bytes)
        path = "\(Self.folder)\(name).\(hasher.hexadecimal.prefix(12)).\(fileExtension)"
    }

    /// The folder of the assets' paths.
    package static let folder = "/_page/"

    /// The style sheet, `Resources/page.css`: system fonts, light and dark from the system's setting, a table that
    /// becomes cards on a phone's width, and visible focus for the keyboard.
    static let style = PageAsset(
        PackageResources.page_css,
        name: "style",
        fileExtension: "css",
        contentType: "text/css; charset=utf-8"
    )

    /// The script, `Resources/page.js`: a list or a post follows the store through its page's Server-Sent Events,
    /// and a post's page edits and deletes with its `ETag` as `If-Match`. The pages read without it.
    static let script = PageAsset(
        PackageResources.page_js,
        name: "page",
        fileExtension: "js",
        contentType: "text/javascript; charset=utf-8"
    )

    /// The icon, `Resources/icon.svg`: a page of text in the accent colour.
    static let icon = PageAsset(
        PackageResources.icon_svg,
        name: "icon",
        fileExtension: "svg",
        contentType: "image/svg+xml"
    )

    /// The asset served at a path, if any.
    package static func at(_ path: String) -> PageAsset? {
        [style, script, icon].first { $0.path == path }
    }
}
