import PostStore

/// A file the pages load (their style sheet, their script), compiled into the server: nothing is read from disk or
/// fetched from another origin. Its path holds a digest of its bytes, so that a browser may keep it for a year and
/// still never run an old script against a new page.
struct PageAsset: Sendable {
    /// The bytes served.
    let bytes: [UInt8]
    /// The `Content-Type`.
    let contentType: String
    /// Where it is served: `/_page/NAME.DIGEST.EXTENSION`.
    let path: String

    private init(_ text: String, name: String, fileExtension: String, contentType: String) {
        bytes = Array(text.utf8)
        self.contentType = contentType
        var hasher = StableHasher()
        hasher.combine(text)
        path = "\(Self.folder)\(name).\(hasher.hexadecimal.prefix(12)).\(fileExtension)"
    }

    /// The folder of the assets' paths.
    static let folder = "/_page/"

    /// The style sheet (``PageStyle``).
    static let style = PageAsset(
        PageStyle.css,
        name: "style",
        fileExtension: "css",
        contentType: "text/css; charset=utf-8"
    )

    /// The script (``PageScript``).
    static let script = PageAsset(
        PageScript.javaScript,
        name: "page",
        fileExtension: "js",
        contentType: "text/javascript; charset=utf-8"
    )

    /// The icon: a page of text in the accent colour.
    static let icon = PageAsset(
        """
        <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect x="4" y="2" width="24" height="28" rx="4" \
        fill="#0b57d0"/><path d="M10 10h12M10 16h12M10 22h8" stroke="#fff" stroke-width="2.5" stroke-linecap="round"/></svg>
        """,
        name: "icon",
        fileExtension: "svg",
        contentType: "image/svg+xml"
    )

    /// The asset served at a path, if any.
    static func at(_ path: String) -> PageAsset? {
        [style, script, icon].first { $0.path == path }
    }
}
