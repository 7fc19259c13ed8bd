import PostStore

/// Posts as text: an aligned table that fits a width, or RFC 4180 CSV.
enum PostsAsText {
    /// Columns `id`, `userId`, `title`, `body`, each line cut with `…` to fit `width`; bodies on one line.
    static func text(_ posts: [Post], width: Int) -> String {
        let idWidth = max(2, posts.map { String($0.id).count }.max() ?? 0)
        let userWidth = max(6, posts.map { String($0.userId).count }.max() ?? 0)
        let textWidth = max(width - idWidth - userWidth - 6, 8)
        let titleWidth = min(max(5, posts.map { columns(oneLine($0.title)) }.max() ?? 0), textWidth * 2 / 5)
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

    /// A header `id,userId,title,body` and one record per post, fields quoted when they hold a comma, a quote, a CR
    /// or an LF (quotes doubled), records ended by CRLF (RFC 4180). Everything else is written as stored.
    static func csv(_ posts: [Post]) -> String {
        var bytes = Array("id,userId,title,body\r\n".utf8)
        for post in posts {
            bytes += String(post.id).utf8
            bytes.append(UInt8(ascii: ","))
            bytes += String(post.userId).utf8
            bytes.append(UInt8(ascii: ","))
            appendField(post.title, to: &bytes)
            bytes.append(UInt8(ascii: ","))
            appendField(post.body, to: &bytes)
            bytes += [UInt8(ascii: "\r"), UInt8(ascii: "\n")]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends a CSV field, quoted when its bytes hold `,`, `"`, CR or LF.
    ///
    /// Decided on UTF-8 bytes, not on `Character`s: `"\r\n"` is one `Character`, equal to neither `"\r"` nor `"\n"`,
    /// and a quote or comma followed by a combining mark is part of a larger `Character` too. Inserting ASCII quotes
    /// between whole scalars keeps the bytes valid UTF-8.
    private static func appendField(_ value: String, to bytes: inout [UInt8]) {
        let quote = UInt8(ascii: "\"")
        let special: Set<UInt8> = [UInt8(ascii: ","), quote, UInt8(ascii: "\r"), UInt8(ascii: "\n")]
        guard value.utf8.contains(where: special.contains) else {
            bytes += value.utf8
            return
        }
        bytes.append(quote)
        for byte in value.utf8 {
            bytes.append(byte)
            if byte == quote { bytes.append(quote) }
        }
        bytes.append(quote)
    }

    /// `text` on one line: line breaks and tabs become spaces, NUL `␀`, any other control character an escape
    /// such as `\u{1B}` (a post's text must not command the terminal).
    private static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: { $0.isNewline || $0 == "\t" }).joined(separator: " ")
            .replacingOccurrences(of: "\u{0}", with: "␀").withVisibleControls
    }

    /// `text` cut to `width` terminal columns, ending in `…` when cut.
    private static func cut(_ text: String, _ width: Int) -> String {
        guard columns(text) > width else { return text }
        var result = ""
        var used = 0
        for character in text {
            let needed = columns(of: character)
            if used + needed > width - 1 { break }
            result.append(character)
            used += needed
        }
        return result + "…"
    }

    private static func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
        let padding = String(repeating: " ", count: max(width - columns(text), 0))
        return right ? padding + text : text + padding
    }

    /// How many terminal columns `text` takes: two for wide characters (CJK, Hangul, emoji), one for the rest.
    static func columns(_ text: String) -> Int {
        text.reduce(0) { $0 + columns(of: $1) }
    }

    private static func columns(of character: Character) -> Int {
        guard let scalar = character.unicodeScalars.first else { return 0 }
        if scalar.properties.isEmojiPresentation || character.unicodeScalars.contains("\u{FE0F}") { return 2 }
        switch scalar.value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
            0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x20000...0x3FFFD:
            return 2
        default:
            return 1
        }
    }
}

extension String {
    fileprivate func trimmingTrailingSpaces() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
