import Foundation
import PostStore
import PropertyBased
import Testing

/// Writes posts as JSON in the many ways JSON allows, steered by a seeded random number generator: whitespace
/// (spaces, tabs, CR, LF) between tokens, any key order, escapes (`\uXXXX` in either case, surrogate pairs for
/// scalars beyond the BMP, `\/`), integers spelled `1.0`, `1e2`, `-0` and so on, and unknown keys holding nested
/// values of every kind.
struct VariedJSONWriter {
    var random: Xoshiro
    private var bytes: [UInt8] = []
    /// Whether whitespace may hold line feeds: not inside a line of newline-delimited JSON.
    private var allowsLineFeeds = true

    /// Keys that look like a post's, and keys that are hard to write.
    private static let extraKeys = [
        "extra", "tags", "meta", "userID", "Id", "ID", "ids", "titles", "Body", "", " id", "id ", "userId\u{0}", "é",
        "😀", "a\"b", "\\", "\n",
    ]

    init(seed: UInt64) {
        random = Xoshiro(seed: (seed, 0x9E37_79B9_7F4A_7C15, 0xBF58_476D_1CE4_E5B9, 0x94D0_49BB_1331_11EB))
    }

    mutating func percent(_ chance: Int) -> Bool {
        Int.random(in: 0..<100, using: &random) < chance
    }

    private mutating func pick<T>(_ options: [T]) -> T {
        options[Int.random(in: 0..<options.count, using: &random)]
    }

    // MARK: Payloads

    /// `JSONEncoder`'s output, in one of its formats.
    mutating func encoded(_ posts: [Post]) -> [UInt8] {
        let encoder = JSONEncoder()
        let formats: [JSONEncoder.OutputFormatting] = [
            [], .prettyPrinted, .sortedKeys, [.prettyPrinted, .sortedKeys], .withoutEscapingSlashes,
        ]
        encoder.outputFormatting = pick(formats)
        return Self.bytes { try encoder.encode(posts) }
    }

    /// `JSONEncoder`'s output for each post, one per line.
    mutating func encodedLines(_ posts: [Post]) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = percent(50) ? .sortedKeys : []
        let end = pick(["\n", "\r\n"])
        return Array(posts.map { post in Self.bytes { try encoder.encode(post) } }.joined(separator: Array(end.utf8)))
    }

    /// What `encode` returns; an error is recorded as an issue (and gives no bytes, which no decoder reads).
    private static func bytes(_ encode: () throws -> Data) -> [UInt8] {
        do {
            return Array(try encode())
        } catch {
            Issue.record(error, "JSONEncoder failed")
            return []
        }
    }

    /// A JSON array of the posts.
    mutating func array(_ posts: [Post]) -> [UInt8] {
        bytes = []
        allowsLineFeeds = true
        whitespace()
        raw("[")
        whitespace()
        for (index, post) in posts.enumerated() {
            if index > 0 {
                raw(",")
                whitespace()
            }
            record(post)
            whitespace()
        }
        raw("]")
        whitespace()
        return bytes
    }

    /// One post per line, lines ending in LF or CRLF, with blank lines here and there.
    mutating func lines(_ posts: [Post]) -> [UInt8] {
        bytes = []
        allowsLineFeeds = false
        let end = pick(["\n", "\r\n"])
        if percent(20) { blankLine(end) }
        for (index, post) in posts.enumerated() {
            if index > 0 {
                raw(end)
                if percent(20) { blankLine(end) }
            }
            whitespace()
            record(post)
            whitespace()
        }
        if percent(50) { raw(end) }
        return bytes
    }

    private mutating func blankLine(_ end: String) {
        let blanks = pick(["", " ", "\t", " \r", "\t \t"])
        raw(blanks + end)
    }

    // MARK: Tokens

    private mutating func raw(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    private mutating func whitespace() {
        guard percent(40) else { return }
        for _ in 0..<Int.random(in: 1...3, using: &random) {
            let space = pick(allowsLineFeeds ? [" ", "  ", "\t", "\r", "\n", "\r\n"] : [" ", "  ", "\t", "\r"])
            raw(space)
        }
    }

    private mutating func record(_ post: Post) {
        enum Field { case userId, id, title, body, extra }
        var fields: [Field] = [.userId, .id, .title, .body]
        if percent(40) {
            for _ in 0..<Int.random(in: 1...3, using: &random) { fields.append(.extra) }
        }
        fields.shuffle(using: &random)
        raw("{")
        whitespace()
        for (index, field) in fields.enumerated() {
            if index > 0 {
                raw(",")
                whitespace()
            }
            switch field {
            case .userId:
                key("userId")
                integer(post.userId)
            case .id:
                key("id")
                integer(post.id)
            case .title:
                key("title")
                string(post.title)
            case .body:
                key("body")
                string(post.body)
            case .extra:
                key(extraKey())
                value(depth: 0)
            }
            whitespace()
        }
        raw("}")
    }

    private mutating func key(_ name: String) {
        string(name)
        whitespace()
        raw(":")
        whitespace()
    }

    private mutating func extraKey() -> String {
        if percent(50) { return pick(Self.extraKeys) }
        let text = PostDecoderDifferentialTests.text.run(using: &random)
        return ["userId", "id", "title", "body"].contains(text) ? "x" + text : text
    }

    /// Any JSON value, nested at most three deep.
    private mutating func value(depth: Int) {
        switch Int.random(in: 0..<(depth < 3 ? 7 : 5), using: &random) {
        case 0:
            raw(pick(["null", "true", "false"]))
        case 1:
            let number = number()
            raw(number)
        case 2:
            integer(Int.random(in: .min ... .max, using: &random))
        case 3, 4:
            string(PostDecoderDifferentialTests.text.run(using: &random))
        case 5:
            raw("[")
            whitespace()
            for index in 0..<Int.random(in: 0...3, using: &random) {
                if index > 0 {
                    raw(",")
                    whitespace()
                }
                value(depth: depth + 1)
                whitespace()
            }
            raw("]")
        default:
            raw("{")
            whitespace()
            for index in 0..<Int.random(in: 0...3, using: &random) {
                if index > 0 {
                    raw(",")
                    whitespace()
                }
                key(PostDecoderDifferentialTests.text.run(using: &random))
                value(depth: depth + 1)
                whitespace()
            }
            raw("}")
        }
    }

    /// Any JSON number: sign, integer part, fraction, exponent.
    private mutating func number() -> String {
        var text = percent(30) ? "-" : ""
        text += percent(20) ? "0" : String(Int.random(in: 1...999_999, using: &random))
        if percent(40) { text += "." + digits() }
        if percent(30) { text += pick(["e", "E"]) + pick(["", "+", "-"]) + digits() }
        return text
    }

    private mutating func digits() -> String {
        String((0..<Int.random(in: 1...4, using: &random)).map { _ in pick(Array("0123456789")) })
    }

    /// An integer, spelled plainly or (as JSONDecoder also reads it) with a zero fraction or an exponent.
    private mutating func integer(_ value: Int) {
        let spelling = integerSpelling(value)
        raw(spelling)
    }

    private mutating func integerSpelling(_ value: Int) -> String {
        let plain = String(value)
        guard percent(50) else { return plain }
        if value == 0 { return pick(["-0", "0.0", "-0.0", "0e5", "0E-3", "-0e+0", "0.000e7"]) }
        // JSONDecoder reads any other spelling through a Double first, which stays below 2^63 up to here.
        guard value.magnitude <= 1 << 62 else { return plain }
        let sign = value < 0 ? "-" : ""
        let digits = String(value.magnitude)
        let significant = digits.reversed().drop(while: { $0 == "0" }).reversed()
        let zeros = digits.count - significant.count
        let mantissa = digits.count == 1 ? digits : "\(digits.first!).\(digits.dropFirst())"
        var spellings = [
            "\(plain).0", "\(plain).000", "\(plain)e0", "\(plain)E+0", "\(plain)e-0", "\(plain)0e-1", "\(plain)00E-2",
            "\(sign)\(mantissa)e\(digits.count - 1)", "\(sign)\(mantissa)E+\(digits.count - 1)",
        ]
        if zeros > 0 {
            spellings += ["\(sign)\(String(significant))e\(zeros)", "\(sign)\(String(significant))E+\(zeros)"]
        }
        return pick(spellings)
    }

    /// A string, with escapes where JSON needs them and, now and then, where it does not.
    private mutating func string(_ text: String) {
        raw("\"")
        for scalar in text.unicodeScalars { character(scalar) }
        raw("\"")
    }

    private mutating func character(_ scalar: Unicode.Scalar) {
        let value = scalar.value
        let short: [UInt32: String] = [0x08: "\\b", 0x09: "\\t", 0x0A: "\\n", 0x0C: "\\f", 0x0D: "\\r"]
        let escaped: String
        if value < 0x20 {
            let hex = hexEscape(value)
            escaped = short[value].flatMap { percent(60) ? $0 : nil } ?? hex
        } else if scalar == "\"" || scalar == "\\" {
            let hex = hexEscape(value)
            escaped = percent(70) ? "\\" + String(scalar) : hex
        } else if scalar == "/" {
            let hex = hexEscape(value)
            escaped = pick(["/", "\\/", hex])
        } else if percent(15) {
            if value < 0x10000 {
                escaped = hexEscape(value)
            } else {
                let high = hexEscape(0xD800 + (value - 0x10000) >> 10)
                let low = hexEscape(0xDC00 + (value - 0x10000) & 0x3FF)
                escaped = high + low
            }
        } else {
            escaped = String(Character(scalar))
        }
        raw(escaped)
    }

    /// `\uXXXX`, each hexadecimal letter in either case.
    private mutating func hexEscape(_ unit: UInt32) -> String {
        let hex = String(unit, radix: 16)
        var escape = "\\u" + String(repeating: "0", count: 4 - hex.count)
        for digit in hex { escape += percent(50) ? digit.uppercased() : String(digit) }
        return escape
    }
}
