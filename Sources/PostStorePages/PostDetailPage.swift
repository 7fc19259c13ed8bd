package import PostStore

/// The page of one post (`/posts/:id` asked for as HTML): its full title and body, and, on a server that takes
/// writes, a form that edits or deletes it with the post's `ETag` as `If-Match` (through the script; the form is
/// hidden without it). The article (`#live`) is what the script puts in place when the post changes.
package struct PostDetailPage {
    let frame: PageFrame
    /// The post.
    let post: Post
    /// The post's `ETag`, as `GET /posts/:id` sends it.
    let tag: String
    /// The store's revision, if it keeps one.
    let revision: String?
    /// Whether the server takes writes.
    let allowsWrites: Bool

    /// Creates the value from its parts.
    package init(frame: PageFrame, post: Post, tag: String, revision: String?, allowsWrites: Bool) {
        self.frame = frame
        self.post = post
        self.tag = tag
        self.revision = revision
        self.allowsWrites = allowsWrites
    }

    package func render() -> HTMLWriter {
        var html = HTMLWriter(capacity: 4_096 + post.title.utf8.count * 2 + post.body.utf8.count * 3)
        frame.begin(&html, title: post.title.isEmpty ? "Post \(post.id)" : post.title) { html in
            html.markup(" data-post=\"")
            html.number(post.id)
            html.markup("\" data-etag=\"")
            html.text(tag)
            html.markup("\"")
            if let revision {
                html.markup(" data-revision=\"")
                html.text(revision)
                html.markup("\"")
            }
        }
        html.markup("<nav class=\"crumbs\"><a href=\"/posts\">All posts</a> · <a href=\"/users/")
        html.number(post.userId)
        html.markup("/posts\">")
        html.text("User \(post.userId)’s posts")
        html.markup("</a></nav>\n<p id=\"notice\" class=\"notice\" role=\"status\" aria-live=\"polite\"></p>\n")
        html.markup("<article id=\"live\">\n<h1><bdi>")
        html.prose(post.title.isEmpty ? "(no title)" : post.title)
        html.markup("</bdi></h1>\n<p class=\"meta\">")
        html.text("Post \(post.id) by user \(post.userId)")
        html.markup("</p>\n<div class=\"body\"><bdi>")
        html.prose(post.body)
        html.markup("</bdi></div>\n</article>\n")
        if allowsWrites { editForm(&html) }
        frame.end(&html)
        return html
    }

    /// Whether the post's title or body holds what the form cannot hold as it is: a control character (shown as its
    /// picture) or a CR (a form's text keeps line feeds alone).
    static func holdsTextAFormChanges(_ post: Post) -> Bool {
        [post.title, post.body].contains { text in
            text.unicodeScalars.contains { scalar in
                scalar.value < 0x20 && scalar != "\n" && scalar != "\t" || scalar.value == 0x7F
            }
        }
    }

    /// The form that edits the post, shown by the script.
    private func editForm(_ html: inout HTMLWriter) {
        html.markup(
            """
            <noscript><p>Editing needs JavaScript: it sends the post's ETag with the change.</p></noscript>
            <form class="edit" hidden aria-label="Edit this post">
            <h2>Edit</h2>
            <div><label for="title">Title</label><input id="title" name="title" value="
            """
        )
        html.text(post.title)
        html.markup("\"></div>\n<div><label for=\"body\">Body</label><textarea id=\"body\" name=\"body\" rows=\"8\"")
        // Chromium takes seconds to wrap a textarea's megabyte word (prose(_:) cannot break a form's text): such a
        // body scrolls sideways.
        if HTMLWriter.holdsALongWord(post.body) { html.markup(" wrap=\"off\"") }
        html.markup(">")
        // A textarea drops one line feed right after its start tag: one of the body's own would be lost.
        if post.body.hasPrefix("\n") || post.body.hasPrefix("\r") { html.markup("\n") }
        html.text(post.body)
        html.markup(
            """
            </textarea></div>
            <div><label for="userId">User</label><input id="userId" name="userId" class="user" inputmode="numeric" \
            required value="
            """
        )
        html.number(post.userId)
        html.markup(
            """
            "></div>
            <div class="actions"><button type="submit">Save</button> <button type="button" id="delete" class="danger">Delete</button></div>
            """
        )
        if Self.holdsTextAFormChanges(post) {
            html.markup(
                """
                <p class="hint">This post holds control characters, shown as symbols (␀, ␇…), or CR LF line ends: \
                a field you edit is saved as you see it; the fields you leave keep their text exactly.</p>

                """
            )
        }
        html.markup(
            """
            </form>

            """
        )
    }
}
