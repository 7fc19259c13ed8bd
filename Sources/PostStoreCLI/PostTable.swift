import PostStore

/// Posts as text: an aligned table that fits a width, or RFC 4180 CSV.
enum PostTable {
    /// Columns `id`, `userId`, `title`, `body`, each line cut with `…` to fit `width`; bodies on one line.
    static func text(_ posts: [Post], width: Int) -> String {
        let idWidth = max(2, posts.map { String($0.id).count }.max() ?? 0)
        let userWidth = max(6, posts.map { String($0.userId).count }.max() ?? 0)
        let textWidth = max(width - idWidth - userWidth - 6, 8)
        let titleWidth = min(max(5, posts.map { oneLine($0.title).count }.max() ?? 0), textWidth * 2 / 5)
        let bodyWidth = max(textWidth - titleWidth, 4)
        func row(_ id: String, _ user: String, _ title: String, _ body: String) -> String {
            pad(id, idWidth, right: true) + "  " + pad(user, userWidth, right: true) + "  "
                + pad(cut(title, titleWidth), titleWidth) + "  " + cut(body, bodyWidth)
        }
        var lines = [row("id", "userId", "title", "body")]
        for post in posts {
            lines.append(row(String(post.id), String(post.userId), oneLine(post.title), oneLine(post.body)))
        }
        // Narrow terminals: whatever the columns need, no line is wider than asked.
        return lines.map { cut($0.trimmingTrailingSpaces(), max(width, 1)) }.joined(separator: "\n") + "\n"
    }

    /// A header `id,userId,title,body` and one record per post, fields quoted when they hold a comma, a quote or
    /// a line break (quotes doubled), lines ended by CRLF (RFC 4180).
    static func csv(_ posts: [Post]) -> String {
        var text = "id,userId,title,body\r\n"
        for post in posts {
            text += [String(post.id), String(post.userId), field(post.title), field(post.body)].joined(separator: ",")
            text += "\r\n"
        }
        return text
    }

    private static func field(_ value: String) -> String {
        guard value.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return value }
        return "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    private static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: { $0.isNewline || $0 == "\t" }).joined(separator: " ")
            .replacingOccurrences(of: "\u{0}", with: "␀")
    }

    private static func cut(_ text: String, _ width: Int) -> String {
        text.count <= width ? text : String(text.prefix(max(width - 1, 0))) + "…"
    }

    private static func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
        let padding = String(repeating: " ", count: max(width - text.count, 0))
        return right ? padding + text : text + padding
    }
}

extension String {
    fileprivate func trimmingTrailingSpaces() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
