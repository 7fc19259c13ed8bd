#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads JSON values and posts straight from UTF-8 bytes: the fast, strict decoder behind ``PostJSON``.
///
/// It accepts exactly RFC 8259 JSON (no trailing commas, no leading zeros, no unescaped control characters, no
/// lone surrogates, valid UTF-8 in every string) and decodes a post the way `JSONDecoder` decodes ``Post``: the
/// four keys in any order, unknown keys skipped, an integer field may be written `1.0` or `1e2` when its value is
/// a whole number that fits in 64 bits. It is stricter than Foundation's decoder on purpose where that decoder is
/// lenient about JSON itself (a trailing comma, an invalid escape inside an ignored field) and in one place where
/// a post would be ambiguous: a record naming one of the four keys twice is refused, not read as the first one.
///
/// The scanner works on a window of a larger payload: when a value runs past the end of a window that is not the
/// payload's last, it throws ``Failure/needsMoreBytes`` and the caller retries the value with more bytes.
struct PostJSONScanner: ~Copyable {
    /// Why a value could not be read.
    enum Failure: Error {
        /// The window ends inside the value and more bytes follow.
        case needsMoreBytes
        /// The bytes are not valid JSON: what is wrong, and the offset of the offending byte in the window.
        case syntax(String, at: Int)
        /// The byte at the offset (in the window) starts no valid UTF-8 character.
        case invalidUTF8(at: Int)
        /// The JSON is valid but is not posts: a whole sentence for a person.
        case notPosts(String)
    }

    /// The kind of a JSON value, for messages such as "found an array".
    enum ValueKind {
        case object, array, string, number, boolean, null

        /// The kind with its article: "an object", "a number", "null".
        var described: String {
            switch self {
            case .object: "an object"
            case .array: "an array"
            case .string: "a string"
            case .number: "a number"
            case .boolean: "a boolean"
            case .null: "null"
            }
        }
    }

    /// A record read as a post, or why it is not one: its problem per field in the order `Post` declares them.
    enum Record {
        case post(Post)
        case notAnObject(ValueKind)
        case invalid(field: String, problem: String, id: Int?)
    }

    /// The bytes of the window.
    let bytes: UnsafeBufferPointer<UInt8>
    /// Whether the window ends the payload.
    let isComplete: Bool
    /// Whether whitespace inside a value may hold a line feed (not in newline-delimited JSON).
    var allowsLineFeeds: Bool
    /// The offset of the next byte to read.
    var position: Int

    /// Values may nest this deep; deeper input is refused rather than risking the stack.
    static let maximumDepth = 512

    init(bytes: UnsafeBufferPointer<UInt8>, isComplete: Bool, allowsLineFeeds: Bool, position: Int) {
        self.bytes = bytes
        self.isComplete = isComplete
        self.allowsLineFeeds = allowsLineFeeds
        self.position = position
    }

    // MARK: Bytes

    /// The byte at ``position``, or `nil` at the end of a complete payload.
    func peek() throws(Failure) -> UInt8? {
        if position < bytes.count { return bytes[position] }
        if isComplete { return nil }
        throw .needsMoreBytes
    }

    /// Skips JSON whitespace (without line feeds when they are not allowed).
    mutating func skipWhitespace() throws(Failure) {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0D: position += 1
            case 0x0A where allowsLineFeeds: position += 1
            default: return
            }
        }
        if !isComplete { throw .needsMoreBytes }
    }

    /// Skips the whitespace allowed on one line: spaces, tabs and carriage returns.
    mutating func skipBlanks() throws(Failure) {
        while position < bytes.count {
            guard bytes[position] == 0x20 || bytes[position] == 0x09 || bytes[position] == 0x0D else { return }
            position += 1
        }
        if !isComplete { throw .needsMoreBytes }
    }

    /// Consumes `byte`, or fails naming what was expected.
    mutating func expect(_ byte: UInt8, _ expected: @autoclosure () -> String) throws(Failure) {
        guard try peek() == byte else { throw unexpected(expected()) }
        position += 1
    }

    /// The failure for the byte at ``position``: invalid UTF-8, the end of the data, or an unexpected character.
    func unexpected(_ expected: String) -> Failure {
        guard position < bytes.count else {
            return .syntax("expected \(expected), found the end of the data", at: position)
        }
        let byte = bytes[position]
        if byte >= 0x80 {
            let rest = UnsafeBufferPointer(rebasing: bytes[position...])
            if Self.invalidUTF8Offset(in: rest) == 0 {
                // A sequence cut off by the window's end may be completed by the next bytes.
                if !isComplete, Self.isCutUTF8Sequence(rest) { return .needsMoreBytes }
                return .invalidUTF8(at: position)
            }
        }
        return .syntax("expected \(expected), found \(Self.describe(byte))", at: position)
    }

    /// Whether the bytes are the start of a UTF-8 sequence that runs past their end: a lead byte and only
    /// continuation bytes, fewer than the lead byte announces.
    private static func isCutUTF8Sequence(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let lead = bytes.first else { return false }
        let length =
            switch lead {
            case 0xC2...0xDF: 2
            case 0xE0...0xEF: 3
            case 0xF0...0xF4: 4
            default: 0
            }
        return bytes.count < length && bytes.dropFirst().allSatisfy { $0 & 0xC0 == 0x80 }
    }

    /// A byte as a message names it: `'x'`, or its value for anything but printable ASCII.
    static func describe(_ byte: UInt8) -> String {
        if byte == 0x0A { return "a line break" }
        if (0x21..<0x7F).contains(byte) { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "the byte 0x\(String(byte, radix: 16, uppercase: true))"
    }

    // MARK: Posts

    /// Reads one record of a payload: an object with the four fields of a post, or a value that is not one.
    mutating func readRecord() throws(Failure) -> Record {
        guard try peek() == UInt8(ascii: "{") else { return .notAnObject(try skipValue(depth: 0)) }
        position += 1
        var userId: Int?
        var id: Int?
        var title: String?
        var body: String?
        var problems = FieldProblems()
        try skipWhitespace()
        if try peek() == UInt8(ascii: "}") {
            position += 1
            return .invalid(field: "userId", problem: "is missing", id: nil)
        }
        while true {
            try expect(UInt8(ascii: "\""), "a field name in quotes")
            let key = try readKey()
            try skipWhitespace()
            try expect(UInt8(ascii: ":"), "':' after a field name")
            try skipWhitespace()
            switch key {
            case .userId?: Self.keep(try readInteger(), in: &userId, .userId, &problems)
            case .id?: Self.keep(try readInteger(), in: &id, .id, &problems)
            case .title?: Self.keep(try readStringField(), in: &title, .title, &problems)
            case .body?: Self.keep(try readStringField(), in: &body, .body, &problems)
            case nil:
                _ = try skipValue(depth: 1)
            }
            try skipWhitespace()
            switch try peek() {
            case UInt8(ascii: ","):
                position += 1
                try skipWhitespace()
            case UInt8(ascii: "}"):
                position += 1
                if let userId, let id, let title, let body, !problems.any {
                    return .post(Post(userId: userId, id: id, title: title, body: body))
                }
                let present = [userId != nil, id != nil, title != nil, body != nil]
                for field in PostField.allCases {
                    if let problem = problems[field.rawValue] {
                        return .invalid(field: field.name, problem: problem, id: id)
                    }
                    if !present[field.rawValue] { return .invalid(field: field.name, problem: "is missing", id: id) }
                }
                preconditionFailure("A record with every field and no problem is a post.")
            default:
                throw unexpected("',' or '}' after a field")
            }
        }
    }

    /// The four fields of a post, in the order `Post` declares them.
    private enum PostField: Int, CaseIterable {
        case userId, id, title, body

        var name: String { ["userId", "id", "title", "body"][rawValue] }
    }

    /// The first problem of each field, by ``PostField`` (the order JSONDecoder reports them in); four stored
    /// properties rather than an array, so a record costs no allocation.
    private struct FieldProblems {
        private var userId, id, title, body: String?

        var any: Bool { userId != nil || id != nil || title != nil || body != nil }

        subscript(field: Int) -> String? {
            get {
                switch field {
                case 0: userId
                case 1: id
                case 2: title
                default: body
                }
            }
            set {
                switch field {
                case 0: userId = newValue
                case 1: id = newValue
                case 2: title = newValue
                default: body = newValue
                }
            }
        }
    }

    /// Keeps a field's value, or its first problem; a field named twice is a problem of its own.
    private static func keep<Value>(
        _ read: Result<Value, FieldProblem>,
        in slot: inout Value?,
        _ field: PostField,
        _ problems: inout FieldProblems
    ) {
        guard slot == nil, problems[field.rawValue] == nil else {
            problems[field.rawValue] = problems[field.rawValue] ?? "appears twice"
            return
        }
        switch read {
        case .success(let value): slot = value
        case .failure(let problem): problems[field.rawValue] = problem.message
        }
    }

    /// Why a field's value does not fit the field.
    private struct FieldProblem: Error {
        let message: String
    }

    /// Reads a key after its opening quote, telling which field of a post it names, if any.
    private mutating func readKey() throws(Failure) -> PostField? {
        let start = position
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                let key = UnsafeBufferPointer(rebasing: bytes[start..<position])
                position += 1
                return Self.field(named: key)
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 || byte >= 0x80 {
                // Rare: escapes or non-ASCII text in a key; read it as a string and compare its bytes.
                position = start
                var key = try readString()
                return key.withUTF8 { Self.field(named: $0) }
            }
            position += 1
        }
        throw isComplete ? .syntax("a field name's quotes are not closed", at: start - 1) : .needsMoreBytes
    }

    private static func field(named key: UnsafeBufferPointer<UInt8>) -> PostField? {
        switch key.count {
        case 2: key[0] == UInt8(ascii: "i") && key[1] == UInt8(ascii: "d") ? .id : nil
        case 4: key[0] == 0x62 && key[1] == 0x6F && key[2] == 0x64 && key[3] == 0x79 ? .body : nil  // body
        case 5: key[0] == 0x74 && key[1] == 0x69 && key[2] == 0x74 && key[3] == 0x6C && key[4] == 0x65 ? .title : nil
        case 6:
            key[0] == 0x75 && key[1] == 0x73 && key[2] == 0x65 && key[3] == 0x72 && key[4] == 0x49 && key[5] == 0x64
                ? .userId : nil
        default: nil
        }
    }

    private mutating func readStringField() throws(Failure) -> Result<String, FieldProblem> {
        guard try peek() == UInt8(ascii: "\"") else {
            return .failure(FieldProblem(message: "must be a string, found \(try skipValue(depth: 1).described)"))
        }
        position += 1
        return .success(try readString())
    }

    // MARK: Strings

    /// Reads a string after its opening quote, through its closing quote.
    mutating func readString() throws(Failure) -> String {
        let start = position
        var nonASCII: UInt64 = 0
        let stop = Self.indexOfQuoteBackslashOrControl(in: bytes, from: start, nonASCII: &nonASCII)
        guard stop < bytes.count else { throw unclosedString(from: start) }
        guard bytes[stop] == UInt8(ascii: "\"") else { return try readEscapedString(from: start, firstEscape: stop) }
        let text = UnsafeBufferPointer(rebasing: bytes[start..<stop])
        position = stop + 1
        if nonASCII == 0 { return String(decoding: text, as: UTF8.self) }
        if let string = String(validating: text, as: UTF8.self) { return string }
        throw .invalidUTF8(at: start + Self.invalidUTF8Offset(in: text)!)
    }

    /// The index of the first `"`, `\\` or control character at or after `start` (or the end), eight bytes at a
    /// time: the inner loop of reading text. `nonASCII` collects the high bits of the bytes passed over.
    private static func indexOfQuoteBackslashOrControl(
        in bytes: UnsafeBufferPointer<UInt8>,
        from start: Int,
        nonASCII: inout UInt64
    ) -> Int {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits: UInt64 = 0x8080_8080_8080_8080
        var index = start
        if let base = UnsafeRawPointer(bytes.baseAddress) {
            while index + 8 <= bytes.count {
                let word = (base + index).loadUnaligned(as: UInt64.self)
                // Bit tricks that are exact as "does any byte …" tests: equal to a quote, equal to a backslash,
                // less than 0x20.
                let quote = word ^ (ones &* 0x22)
                let backslash = word ^ (ones &* 0x5C)
                let special =
                    ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash) | ((word &- ones &* 0x20) & ~word)
                if special & highBits != 0 { break }
                nonASCII |= word & highBits
                index += 8
            }
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { return index }
            nonASCII |= UInt64(byte & 0x80)
            index += 1
        }
        return index
    }

    /// The failure for a string that runs to the end of the window: more bytes, or (at the payload's end) the
    /// string's first invalid UTF-8 byte or its missing closing quote.
    private func unclosedString(from start: Int) -> Failure {
        guard isComplete else { return .needsMoreBytes }
        let text = UnsafeBufferPointer(rebasing: bytes[start...])
        if let offset = Self.invalidUTF8Offset(in: text) { return .invalidUTF8(at: start + offset) }
        return .syntax("a string's quotes are not closed", at: start - 1)
    }

    /// Reads a string that holds escapes (or a control character, which is refused) in two passes: the first finds
    /// its end and checks every escape and byte, the second decodes it straight into the new string's storage.
    private mutating func readEscapedString(from start: Int, firstEscape: Int) throws(Failure) -> String {
        var nonASCII: UInt64 = 0
        _ = Self.indexOfQuoteBackslashOrControl(
            in: UnsafeBufferPointer(rebasing: bytes[..<firstEscape]),
            from: start,
            nonASCII: &nonASCII
        )
        var index = firstEscape
        while true {
            guard index < bytes.count else { throw unclosedString(from: start) }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") { break }
            if byte == UInt8(ascii: "\\") {
                index = try checkEscape(at: index, inStringFrom: start)
                index = Self.indexOfQuoteBackslashOrControl(in: bytes, from: index, nonASCII: &nonASCII)
                continue
            }
            if byte < 0x20 {
                let code = String(byte, radix: 16, uppercase: true)
                throw .syntax(
                    "a control character (U+\(String(repeating: "0", count: 4 - code.count) + code)) must be escaped "
                        + "in a string",
                    at: index
                )
            }
            index = Self.indexOfQuoteBackslashOrControl(in: bytes, from: index, nonASCII: &nonASCII)
        }
        let end = index
        // Escapes are ASCII, so the raw bytes are valid UTF-8 exactly when the text between them is.
        let raw = UnsafeBufferPointer(rebasing: bytes[start..<end])
        if nonASCII != 0, String(validating: raw, as: UTF8.self) == nil {
            throw .invalidUTF8(at: start + Self.invalidUTF8Offset(in: raw)!)
        }
        position = end + 1
        // Decoded text is never longer than its escaped form.
        return String(unsafeUninitializedCapacity: raw.count) { output in
            var written = 0
            var index = 0
            while index < raw.count {
                // Copy the run up to the next escape in one go.
                let run = Self.indexOfBackslash(in: raw, from: index)
                if run > index {
                    let count = run - index
                    UnsafeMutableRawPointer(output.baseAddress! + written)
                        .copyMemory(from: raw.baseAddress! + index, byteCount: count)
                    written += count
                    index = run
                    continue
                }
                let escaped = raw[index + 1]
                guard escaped == UInt8(ascii: "u") else {
                    output[written] = Self.unescaped(escaped)!
                    written += 1
                    index += 2
                    continue
                }
                var value = Self.hexQuad(raw, at: index + 2)!
                index += 6
                if (0xD800..<0xDC00).contains(value) {
                    value = 0x10000 + ((value - 0xD800) << 10) + (Self.hexQuad(raw, at: index + 2)! - 0xDC00)
                    index += 6
                }
                UTF8.encode(Unicode.Scalar(value)!) { unit in
                    output[written] = unit
                    written += 1
                }
            }
            return written
        }
    }

    /// The index of the first backslash at or after `index`, or the end.
    private static func indexOfBackslash(in text: UnsafeBufferPointer<UInt8>, from index: Int) -> Int {
        guard let base = text.baseAddress, index < text.count,
            let found = memchr(base + index, Int32(UInt8(ascii: "\\")), text.count - index)
        else { return text.count }
        return UnsafeRawPointer(found) - UnsafeRawPointer(base)
    }

    /// The byte a one-character escape (`\n`, `\"`, …) stands for, or `nil` when it is not one.
    private static func unescaped(_ escaped: UInt8) -> UInt8? {
        switch escaped {
        case UInt8(ascii: "\""): 0x22
        case UInt8(ascii: "\\"): 0x5C
        case UInt8(ascii: "/"): 0x2F
        case UInt8(ascii: "b"): 0x08
        case UInt8(ascii: "f"): 0x0C
        case UInt8(ascii: "n"): 0x0A
        case UInt8(ascii: "r"): 0x0D
        case UInt8(ascii: "t"): 0x09
        default: nil
        }
    }

    /// Checks the escape whose backslash is at `index`, in the string whose text starts at `start`, and returns the
    /// index after it.
    private func checkEscape(at index: Int, inStringFrom start: Int) throws(Failure) -> Int {
        guard index + 1 < bytes.count else { throw unclosedString(from: start) }
        let escaped = bytes[index + 1]
        if Self.unescaped(escaped) != nil { return index + 2 }
        guard escaped == UInt8(ascii: "u") else {
            let described = Self.describe(escaped)
            let shown = described.hasPrefix("'") ? String(described.dropFirst().dropLast()) : described
            throw .syntax("invalid escape '\\\(shown)' in a string", at: index)
        }
        let value = try readHexQuad(at: index + 2)
        if (0xDC00..<0xE000).contains(value) { throw .syntax("a \\u escape holds a lone surrogate", at: index) }
        guard (0xD800..<0xDC00).contains(value) else { return index + 6 }
        // A high surrogate must be followed by a low one; together they make one scalar.
        guard index + 7 < bytes.count || isComplete else { throw .needsMoreBytes }
        guard index + 7 < bytes.count, bytes[index + 6] == UInt8(ascii: "\\"), bytes[index + 7] == UInt8(ascii: "u"),
            (0xDC00..<0xE000).contains(try readHexQuad(at: index + 8))
        else { throw .syntax("a \\u escape holds a lone surrogate", at: index) }
        return index + 12
    }

    /// The value of four hexadecimal digits already checked by ``readHexQuad(at:)``.
    private static func hexQuad(_ text: UnsafeBufferPointer<UInt8>, at offset: Int) -> UInt32? {
        var value: UInt32 = 0
        for byte in text[offset..<(offset + 4)] {
            guard let digit = byte.hexDigitValue else { return nil }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    private func readHexQuad(at offset: Int) throws(Failure) -> UInt32 {
        guard offset + 4 <= bytes.count else {
            throw isComplete ? .syntax("a \\u escape needs four hexadecimal digits", at: offset - 2) : .needsMoreBytes
        }
        guard let value = Self.hexQuad(bytes, at: offset) else {
            throw .syntax("a \\u escape needs four hexadecimal digits", at: offset - 2)
        }
        return value
    }

    /// The offset of the first byte that starts no valid UTF-8 character, or `nil` when every byte is valid.
    static func invalidUTF8Offset(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let scalar): offset += scalar.count
            case .error: return offset
            case .emptyInput: return nil
            }
        }
    }

    // MARK: Numbers

    /// Reads an integer field: a JSON number whose value is a whole number that fits in 64 bits.
    private mutating func readInteger() throws(Failure) -> Result<Int, FieldProblem> {
        let start = position
        // The common case: up to 18 digits, no sign, fraction or exponent.
        var value = 0
        var digits = 0
        while position < bytes.count, digits < 18, case let digit = bytes[position] &- UInt8(ascii: "0"), digit < 10 {
            value = value &* 10 &+ Int(digit)
            digits += 1
            position += 1
        }
        if digits > 0, position < bytes.count, !Self.continuesNumber(bytes[position]),
            bytes[start] != UInt8(ascii: "0") || digits == 1
        {
            return .success(value)
        }
        position = start
        guard let first = try peek(),
            first == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first)
        else {
            return .failure(FieldProblem(message: "must be an integer, found \(try skipValue(depth: 1).described)"))
        }
        let number = try readNumber()
        let text = String(decoding: bytes[number], as: UTF8.self)
        let isPlainInteger = !bytes[number].contains { $0 == UInt8(ascii: ".") || $0 | 0x20 == UInt8(ascii: "e") }
        switch Self.integerValue(of: UnsafeBufferPointer(rebasing: bytes[number])) {
        case .some(.some(let value)) where isPlainInteger || (value != .min && Double(value) < 0x1p63):
            return .success(value)
        case .some(.some):
            // JSONDecoder refuses a whole number written with a fraction or an exponent when it is Int.min or rounds
            // up to 2^63 as a Double; so does this decoder, to accept nothing JSONDecoder refuses.
            return .failure(FieldProblem(message: "must be an integer that fits in 64 bits, found \(text)"))
        case .some(nil):
            return .failure(FieldProblem(message: "must be an integer that fits in 64 bits, found \(text)"))
        case nil: return .failure(FieldProblem(message: "must be an integer, found \(text)"))
        }
    }

    private static func continuesNumber(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e")
            || byte == UInt8(ascii: "E")
    }

    /// Reads a JSON number, checking its grammar, and returns its range.
    private mutating func readNumber() throws(Failure) -> Range<Int> {
        let start = position
        func digit() throws(Failure) -> Bool {
            guard let byte = try peek() else { return false }
            return (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        }
        func digits() throws(Failure) {
            guard try digit() else { throw unexpected("a digit") }
            while try digit() { position += 1 }
        }
        if try peek() == UInt8(ascii: "-") { position += 1 }
        if try peek() == UInt8(ascii: "0") {
            position += 1
            if try digit() { throw .syntax("a number may not start with 0", at: start) }
        } else {
            try digits()
        }
        if try peek() == UInt8(ascii: ".") {
            position += 1
            try digits()
        }
        if let byte = try peek(), byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
            position += 1
            if let sign = try peek(), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { position += 1 }
            try digits()
        }
        // A number must end at a delimiter; in an incomplete window, more digits could follow.
        if position == bytes.count, !isComplete { throw .needsMoreBytes }
        return start..<position
    }

    /// The value of a valid JSON number as an integer: `nil` when it is not a whole number, `.some(nil)` when it is
    /// one too large for 64 bits.
    static func integerValue(of number: UnsafeBufferPointer<UInt8>) -> Int?? {
        var index = 0
        let negative = number.first == UInt8(ascii: "-")
        if negative { index += 1 }
        var significant: [UInt8] = []  // Decimal digits without leading zeros.
        var fractionDigits = 0
        var inFraction = false
        while index < number.count {
            let byte = number[index]
            if byte == UInt8(ascii: ".") {
                inFraction = true
            } else if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
                break
            } else {
                if !(significant.isEmpty && byte == UInt8(ascii: "0")) { significant.append(byte - UInt8(ascii: "0")) }
                if inFraction { fractionDigits += 1 }
            }
            index += 1
        }
        var exponent = 0
        if index < number.count {
            index += 1
            var exponentNegative = false
            if number[index] == UInt8(ascii: "+") || number[index] == UInt8(ascii: "-") {
                exponentNegative = number[index] == UInt8(ascii: "-")
                index += 1
            }
            while index < number.count {
                exponent = min(exponent * 10 + Int(number[index] - UInt8(ascii: "0")), 1_000_000)
                index += 1
            }
            if exponentNegative { exponent = -exponent }
        }
        // The value is `significant` × 10^scale, once digits that were only leading zeros of the fraction are gone.
        var scale = exponent - fractionDigits
        if significant.isEmpty { return .some(0) }
        while scale < 0, significant.last == 0 {
            significant.removeLast()
            scale += 1
        }
        if scale < 0 { return nil }
        if significant.count + scale > 19 { return .some(nil) }
        var value = 0
        for digit in significant + [UInt8](repeating: 0, count: scale) {
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (next, overflow2) =
                negative
                ? times10.subtractingReportingOverflow(Int(digit)) : times10.addingReportingOverflow(Int(digit))
            if overflow1 || overflow2 { return .some(nil) }
            value = next
        }
        return .some(value)
    }

    // MARK: Any value

    /// Skips any JSON value, checking it, and says what kind it was.
    mutating func skipValue(depth: Int) throws(Failure) -> ValueKind {
        guard let byte = try peek() else { throw unexpected("a value") }
        switch byte {
        case UInt8(ascii: "\""):
            position += 1
            _ = try readString()
            return .string
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            _ = try readNumber()
            return .number
        case UInt8(ascii: "t"):
            try readLiteral("true")
            return .boolean
        case UInt8(ascii: "f"):
            try readLiteral("false")
            return .boolean
        case UInt8(ascii: "n"):
            try readLiteral("null")
            return .null
        case UInt8(ascii: "["), UInt8(ascii: "{"):
            guard depth < Self.maximumDepth else {
                throw .syntax("values are nested deeper than \(Self.maximumDepth) levels", at: position)
            }
            let isObject = byte == UInt8(ascii: "{")
            let close = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
            position += 1
            try skipWhitespace()
            if try peek() == close {
                position += 1
                return isObject ? .object : .array
            }
            while true {
                if isObject {
                    try expect(UInt8(ascii: "\""), "a field name in quotes")
                    _ = try readString()
                    try skipWhitespace()
                    try expect(UInt8(ascii: ":"), "':' after a field name")
                    try skipWhitespace()
                }
                _ = try skipValue(depth: depth + 1)
                try skipWhitespace()
                if try peek() == UInt8(ascii: ",") {
                    position += 1
                    try skipWhitespace()
                    continue
                }
                try expect(close, isObject ? "',' or '}'" : "',' or ']'")
                return isObject ? .object : .array
            }
        default:
            throw unexpected("a value")
        }
    }

    /// Reads an object's keys, skipping their values: to name what a payload that is one object holds.
    mutating func readObjectKeys() throws(Failure) -> [String] {
        try expect(UInt8(ascii: "{"), "an object")
        var keys: [String] = []
        try skipWhitespace()
        if try peek() == UInt8(ascii: "}") {
            position += 1
            return keys
        }
        while true {
            try expect(UInt8(ascii: "\""), "a field name in quotes")
            keys.append(try readString())
            try skipWhitespace()
            try expect(UInt8(ascii: ":"), "':' after a field name")
            try skipWhitespace()
            _ = try skipValue(depth: 1)
            try skipWhitespace()
            if try peek() == UInt8(ascii: ",") {
                position += 1
                try skipWhitespace()
                continue
            }
            try expect(UInt8(ascii: "}"), "',' or '}'")
            return keys
        }
    }

    private mutating func readLiteral(_ literal: StaticString) throws(Failure) {
        let start = position
        for expected in UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount) {
            guard try peek() == expected else {
                throw position == start
                    ? unexpected("a value") : .syntax("invalid literal (expected \(literal))", at: start)
            }
            position += 1
        }
    }
}
