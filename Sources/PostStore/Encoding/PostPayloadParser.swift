/// Reads a whole payload of posts — a JSON array, or newline-delimited JSON — window by window, so a payload of
/// any size streams through a fixed buffer.
///
/// The caller hands in consecutive windows of the payload: each call reads the records that lie wholly in the
/// window and says where it stopped; the caller keeps the bytes from there on, appends more and calls again. Every
/// problem is reported as ``PostStoreError/Code/invalidData`` naming the record (index or line, and id) and field,
/// or the byte offset in the payload where the JSON breaks. Ids are checked for repeats across the whole payload.
struct PostPayloadParser {
    /// The payload's layout, known once its first value starts.
    enum Format {
        case array, lines
    }

    private enum State {
        case start, arrayFirstElement, arrayElement, arraySeparator, arrayEnded, lines, finished
    }

    private var state = State.start
    /// The most bytes of JSON one post may take (``PayloadLimits/maximumPostBytes``).
    private let maximumPostBytes: Int
    /// Whether the payload is an array inside a larger document: it must be an array, its `]` ends it, whatever
    /// follows, and its ids are not checked for repeats (the caller, which keeps the posts, finds them).
    private let isEmbedded: Bool
    /// How many records were read.
    private(set) var recordCount = 0
    /// The number of the line being read, in newline-delimited JSON.
    private var line = 1
    /// The id of every post read, in order, checked for repeats once the payload ends: sorting a copy once (ids
    /// usually come in order) costs less than a hash-table lookup per post.
    private var ids: [Int] = []
    /// In newline-delimited JSON, the line of each post in `ids`.
    private var idLines: [Int32] = []

    /// The payload's layout, once known.
    private(set) var format: Format?

    /// Whether the payload has been read to its end.
    var isFinished: Bool { state == .finished }

    /// Creates a parser for one payload.
    ///
    /// - Parameters:
    ///   - expectedPosts: Room to reserve for ids, when the payload's size suggests it.
    ///   - maximumPostBytes: The most bytes of JSON one post may take; a longer one is refused, also before it has
    ///     been read whole, so a stream's buffer never grows much past it.
    ///   - isEmbedded: Whether the payload is an array that a larger document holds (a JSON store's `posts`): then
    ///     ``parse(_:from:windowOffset:isComplete:into:limit:)`` finishes at its `]`, and returns where it ends, and
    ///     leaves repeated ids to the caller.
    init(expectedPosts: Int = 0, maximumPostBytes: Int = .max, isEmbedded: Bool = false) {
        self.maximumPostBytes = maximumPostBytes
        self.isEmbedded = isEmbedded
        ids.reserveCapacity(expectedPosts)
    }

    /// Reads the records that lie wholly in a window of the payload.
    ///
    /// - Parameters:
    ///   - window: Bytes of the payload.
    ///   - start: Where in the window to go on: where the previous call stopped.
    ///   - windowOffset: The offset of the window's first byte in the payload, for messages.
    ///   - isComplete: Whether the window reaches the payload's end.
    ///   - posts: Where the posts go.
    ///   - limit: Stops once `posts` holds this many.
    /// - Returns: Where it stopped: the bytes before are read, the caller keeps the rest for the next window.
    /// - Throws: ``PostStoreError/Code/invalidData`` naming the problem.
    mutating func parse(
        _ window: UnsafeBufferPointer<UInt8>,
        from start: Int,
        windowOffset: Int,
        isComplete: Bool,
        into posts: inout [Post],
        limit: Int = .max
    ) throws(PostStoreError) -> Int {
        var scanner = PostJSONScanner(
            bytes: window,
            isComplete: isComplete,
            allowsLineFeeds: state != .lines,
            position: start
        )
        var stopped = start
        do throws(PostJSONScanner.Failure) {
            while posts.count < limit {
                switch state {
                case .start:
                    if windowOffset + scanner.position == 0 {
                        guard window.count >= 3 || isComplete else { throw PostJSONScanner.Failure.needsMoreBytes }
                        if window.starts(with: [0xEF, 0xBB, 0xBF]) { scanner.position = 3 }
                    }
                    // Whitespace before the first value is dropped as it is read, so a stream holds none of it;
                    // its line feeds count for the line numbers of newline-delimited JSON.
                    while scanner.position < window.count, window[scanner.position].isJSONWhitespace {
                        if window[scanner.position] == UInt8(ascii: "\n") { line += 1 }
                        scanner.position += 1
                    }
                    stopped = scanner.position
                    try readStart(&scanner)
                case .arrayFirstElement, .arrayElement:
                    try scanner.skipWhitespace()
                    if state == .arrayFirstElement, try scanner.peek() == UInt8(ascii: "]") {
                        scanner.position += 1
                        state = .arrayEnded
                        break
                    }
                    let recordStart = scanner.position
                    let record = try scanner.readRecord()
                    try keep(record, size: scanner.position - recordStart, into: &posts)
                    state = .arraySeparator
                case .arraySeparator:
                    try scanner.skipWhitespace()
                    switch try scanner.peek() {
                    case UInt8(ascii: ","): state = .arrayElement
                    case UInt8(ascii: "]"): state = .arrayEnded
                    default: throw scanner.unexpected("',' or ']' after the post at index \(recordCount - 1)")
                    }
                    scanner.position += 1
                case .arrayEnded:
                    if !isEmbedded {
                        try scanner.skipWhitespace()
                        guard try scanner.peek() == nil else {
                            throw scanner.unexpected("nothing after the array's closing ']'")
                        }
                    }
                    try checkUniqueIds()
                    state = .finished
                case .lines:
                    try scanner.skipBlanks()
                    switch try scanner.peek() {
                    case nil:
                        try checkUniqueIds()
                        state = .finished
                    case UInt8(ascii: "\n"):
                        scanner.position += 1
                        line += 1
                    default:
                        try readLine(&scanner, into: &posts, window: window, isComplete: isComplete)
                    }
                case .finished:
                    return scanner.position
                }
                stopped = scanner.position
            }
            return stopped
        } catch {
            switch error {
            case .needsMoreBytes:
                if state == .start {
                    // A first value that is not a payload's start (`[`, or `{` of a line) is refused once read
                    // whole; one larger than a post may be is refused before that.
                    guard window.count - stopped - 4096 > maximumPostBytes else { return stopped }
                    throw PostStoreError(
                        .invalidData,
                        "The data is not a JSON array of posts nor one post per line: its "
                            + "first value is larger than the limit of \(PayloadLimits.describe(bytes: maximumPostBytes)) "
                            + "per post."
                    )
                }
                // Whitespace before a record is read: dropping it keeps the unfinished record's bytes, which alone count
                // against the limit (in newline-delimited JSON a line feed is a step of its own, so it stops there).
                var recordStart = stopped
                while recordStart < window.count, window[recordStart].isJSONWhitespace,
                    state != .lines || window[recordStart] != UInt8(ascii: "\n")
                {
                    recordStart += 1
                }
                // Blanks after a record on its line are read again with it, but are not part of it either.
                var recordEnd = window.count
                while recordEnd > recordStart, window[recordEnd - 1].isJSONWhitespace { recordEnd -= 1 }
                if recordEnd - recordStart - 4096 > maximumPostBytes {
                    throw PostStoreError(
                        .invalidData,
                        "\(name(of: format == .lines ? line : recordCount, capitalized: true)) is larger than the "
                            + "limit of \(PayloadLimits.describe(bytes: maximumPostBytes)) per post."
                    )
                }
                return recordStart
            case .syntax(let problem, let offset):
                let message =
                    format == .lines
                    ? "Line \(line) is not valid JSON: \(problem) (byte offset \(windowOffset + offset))."
                    : "The data is not valid JSON: \(problem) (byte offset \(windowOffset + offset)\(recordContext))."
                throw PostStoreError(.invalidData, message)
            case .notPosts(let message):
                throw PostStoreError(.invalidData, message)
            case .invalidUTF8(let offset):
                throw PostStoreError(
                    .invalidData,
                    "The data is not valid UTF-8: the byte 0x\(String(window[offset], radix: 16, uppercase: true)) "
                        + "at byte offset \(windowOffset + offset) starts no valid character."
                )
            }
        }
    }

    /// Reads up to the first value and decides the format: `[` starts an array, `{` newline-delimited JSON.
    private mutating func readStart(_ scanner: inout PostJSONScanner) throws(PostJSONScanner.Failure) {
        let afterMark = scanner.position
        try scanner.skipWhitespace()
        switch try scanner.peek() {
        case nil:
            throw .notPosts("The data is empty, not a JSON array of posts.")
        case UInt8(ascii: "["):
            scanner.position += 1
            format = .array
            state = .arrayFirstElement
        case UInt8(ascii: "{") where !isEmbedded:
            // Lines are counted from the start, blank ones included.
            scanner.position = afterMark
            scanner.allowsLineFeeds = false
            format = .lines
            state = .lines
        default:
            let kind = try scanner.skipValue(depth: 0)
            throw .notPosts("The data must be an array, found \(kind.described).")
        }
    }

    /// Reads one line of newline-delimited JSON: one post, then the line's end.
    private mutating func readLine(
        _ scanner: inout PostJSONScanner,
        into posts: inout [Post],
        window: UnsafeBufferPointer<UInt8>,
        isComplete: Bool
    ) throws(PostJSONScanner.Failure) {
        let start = scanner.position
        do throws(PostJSONScanner.Failure) {
            let record = try scanner.readRecord()
            let size = scanner.position - start
            // One object that names none of a post's fields is a document, such as {"posts": […]}, not a post.
            if recordCount == 0, case .invalid = record,
                let keys = try Self.wholePayloadObjectKeys(window, start, isComplete),
                !keys.contains(where: ["userId", "id", "title", "body"].contains)
            {
                throw PostJSONScanner.Failure.notPosts(Self.oneObjectMessage(keys))
            }
            try scanner.skipBlanks()
            let next = try scanner.peek()
            guard next == nil || next == UInt8(ascii: "\n") else {
                throw scanner.unexpected("the end of the line after the post (one post per line)")
            }
            // Last: a step that needs more bytes is read again, so only a finished one may keep its post.
            try keep(record, size: size, into: &posts)
            if next != nil {
                scanner.position += 1
                line += 1
            }
        } catch .syntax(let problem, let offset) where recordCount == 0 {
            if let keys = try Self.wholePayloadObjectKeys(window, start, isComplete) {
                throw .notPosts(Self.oneObjectMessage(keys))
            }
            throw .syntax(problem, at: offset)
        }
    }

    /// The keys of the object at `start` when it is all that is left of the payload (a document such as
    /// `{"posts": […]}`, or one post spread over several lines), else `nil`.
    private static func wholePayloadObjectKeys(
        _ window: UnsafeBufferPointer<UInt8>,
        _ start: Int,
        _ isComplete: Bool
    ) throws(PostJSONScanner.Failure) -> [String]? {
        var scanner = PostJSONScanner(bytes: window, isComplete: isComplete, allowsLineFeeds: true, position: start)
        do throws(PostJSONScanner.Failure) {
            let keys = try scanner.readObjectKeys()
            try scanner.skipWhitespace()
            return try scanner.peek() == nil ? keys : nil
        } catch .needsMoreBytes {
            throw .needsMoreBytes
        } catch {
            return nil
        }
    }

    /// Keeps a record's post, or throws what is wrong with it.
    private mutating func keep(
        _ record: PostJSONScanner.Record,
        size: Int,
        into posts: inout [Post]
    ) throws(PostJSONScanner.Failure) {
        let position = format == .lines ? line : recordCount
        switch record {
        case .post(let post) where size > maximumPostBytes:
            throw .notPosts(
                "\(name(of: position, capitalized: true)) (id \(post.id)) is \(size) bytes of JSON, larger than the "
                    + "limit of \(PayloadLimits.describe(bytes: maximumPostBytes)) per post."
            )
        case .post(let post):
            if !isEmbedded { ids.append(post.id) }
            if format == .lines { idLines.append(Int32(clamping: position)) }
            posts.append(post)
            recordCount += 1
        case .notAnObject(let kind):
            throw .notPosts("\(name(of: position, capitalized: true)) must be an object, found \(kind.described).")
        case .invalid(let field, let problem, let id):
            let id = id.map { " (id \($0))" } ?? ""
            throw .notPosts("\(name(of: position, capitalized: true))\(id): field \"\(field)\" \(problem).")
        }
    }

    /// Refuses an id that appears twice, naming the first repeat in the payload's order and the record it repeats.
    private func checkUniqueIds() throws(PostJSONScanner.Failure) {
        guard let (index, earlier) = ids.firstRepeat(sorted: ids.sorted()) else { return }
        let position = { (index: Int) in self.format == .lines ? Int(self.idLines[index]) : index }
        throw .notPosts(
            "\(name(of: position(index), capitalized: true)) repeats id \(ids[index]) of "
                + "\(name(of: position(earlier))); ids must be unique."
        )
    }

    /// "the post at index 7" or "the post on line 8".
    private func name(of position: Int, capitalized: Bool = false) -> String {
        let article = capitalized ? "The" : "the"
        return format == .lines ? "\(article) post on line \(position)" : "\(article) post at index \(position)"
    }

    private static func oneObjectMessage(_ keys: [String]) -> String {
        let found =
            keys.isEmpty
            ? "an empty JSON object"
            : "one JSON object (with keys \(keys.sorted().prefix(5).map(Self.quoted).joined(separator: ", ")))"
        return "The data is \(found), not a JSON array of posts nor one post per line."
    }

    /// A key as a message shows it: in quotes, control characters and quotes escaped (so a message stays one
    /// line), cut after 40 characters.
    private static func quoted(_ key: String) -> String {
        var shown = ""
        for scalar in key.unicodeScalars.prefix(40) {
            let category = scalar.properties.generalCategory
            let isBreaking = category == .control || category == .lineSeparator || category == .paragraphSeparator
            shown += isBreaking || scalar == "\"" || scalar == "\\" ? scalar.escaped(asASCII: true) : String(scalar)
        }
        return "\"\(shown)\(key.unicodeScalars.count > 40 ? "…" : "")\""
    }

    /// Names the record a syntax error is in, for arrays.
    private var recordContext: String {
        switch state {
        case .arrayElement, .arrayFirstElement: ", in the post at index \(recordCount)"
        default: ""
        }
    }
}
