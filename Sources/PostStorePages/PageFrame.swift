/// What every page for people shares: the document's head (its title, the style sheet and the script, both of the
/// server's own origin), the bar naming the store, and the answer's header fields (a strict
/// Content-Security-Policy among them).
package struct PageFrame {
    /// The store's name as the bar shows it: its engine and location, as `poststore info` names them.
    let storeName: String

    /// Creates the value from its parts.
    package init(storeName: String) {
        self.storeName = storeName
    }

    /// The policy of every page: nothing but the server's own style sheet, script and requests; no inline script
    /// or style, no plug-in, no frame around the page, forms sent to the server alone.
    package static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
        + "form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

    /// Writes the document up to the start of `main`'s content.
    ///
    /// - Parameters:
    ///   - html: The document.
    ///   - title: The page's title, before the store's name.
    ///   - mainAttributes: Attributes of `main` (`data-…`), markup of the server's own whose values were escaped.
    func begin(_ html: inout HTMLWriter, title: String, mainAttributes: (inout HTMLWriter) -> Void = { _ in }) {
        html.markup(
            """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="color-scheme" content="light dark">
            <title>
            """
        )
        html.text(title)
        html.markup(" · ")
        html.text(storeName)
        html.markup("</title>\n<link rel=\"icon\" href=\"")
        html.text(PageAsset.icon.path)
        html.markup("\" type=\"image/svg+xml\">\n<link rel=\"stylesheet\" href=\"")
        html.text(PageAsset.style.path)
        html.markup("\">\n<script src=\"")
        html.text(PageAsset.script.path)
        html.markup(
            """
            " defer></script>
            </head>
            <body>
            <a class="skip" href="#main">Skip to the content</a>
            <header class="bar"><a class="home" href="/">PostStore</a> <span class="store"><bdi>
            """
        )
        html.text(storeName)
        html.markup("</bdi></span></header>\n<main id=\"main\"")
        mainAttributes(&html)
        html.markup(">\n")
    }

    /// Writes the end of the document, from the end of `main`'s content.
    func end(_ html: inout HTMLWriter) {
        html.markup("</main>\n</body>\n</html>\n")
    }
}
