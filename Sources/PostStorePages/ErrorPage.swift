package import HTTPTypes

/// A refusal as a page, for a person whose browser asked for one: the API's own one-line message under the status,
/// and a way back to the list. Same status as the JSON answer.
package struct ErrorPage {
    let frame: PageFrame
    /// The answer's status.
    let status: HTTPResponse.Status
    /// The API's message.
    let message: String

    /// Creates the value from its parts.
    package init(frame: PageFrame, status: HTTPResponse.Status, message: String) {
        self.frame = frame
        self.status = status
        self.message = message
    }

    package func render() -> HTMLWriter {
        var html = HTMLWriter(capacity: 2_048 + message.utf8.count * 2)
        frame.begin(&html, title: "\(status.code) \(status.reasonPhrase)")
        html.markup("<h1>")
        html.text("\(status.code) \(status.reasonPhrase)")
        html.markup("</h1>\n<p><bdi>")
        html.text(message)
        html.markup("</bdi></p>\n<p><a href=\"/posts\">All posts</a></p>\n")
        frame.end(&html)
        return html
    }
}
