import PostStore
import PostgresNIO

/// Posts streamed into a table a chunk at a time, inside the write's transaction: as the rows of one
/// `COPY … FROM STDIN` (``PostgresCopyIn``, which keeps postgres-nio 1.33.2 away from its traps), or, where that
/// cannot run (postgres-nio's channel out of reach), as arrays bound to one `INSERT … SELECT * FROM unnest(…)` per
/// batch.
///
/// Each post fills ``columns``: its id and user id, its title and body, and `search_text`, the title and body
/// lowercased by Swift (as ``TextSearch`` lowercases); and the write's revision, for the posts table itself. None
/// holds a NUL character, which `text` cannot hold: the writer refuses a post with one before it gets here.
struct PostgresPostBatch {
    /// The columns each post fills, in order (then `revision`, for the posts table itself).
    static let columns = ["id", "user_id", "title", "body", "search_text"]

    /// How many bytes a chunk of `COPY` rows gathers before it is sent: large enough that the sends cost little,
    /// small enough that the server starts on the rows early.
    static let copyChunkSize = 256 * 1024

    /// How many bytes of text a batch of arrays gathers before a statement sends them: large enough that the
    /// statements cost little, small enough that a batch's arrays stay a few megabytes.
    static let arrayByteLimit = 2 << 20

    private enum Destination {
        case copy(PostgresCopyIn.Sender)
        case statements(PostgresSession, table: String)
    }

    private let destination: Destination
    private let revision: Int?

    // A COPY's rows, in its text format.
    private var rows = ByteBuffer()

    // A statement's arrays.
    private var ids: [Int] = []
    private var userIds: [Int] = []
    private var titles: [String] = []
    private var bodies: [String] = []
    private var searchTexts: [String] = []
    private var arrayBytes = 0

    private init(_ destination: Destination, revision: Int?) {
        self.destination = destination
        self.revision = revision
        if case .copy = destination { rows.reserveCapacity(Self.copyChunkSize + 64 * 1024) }
    }

    /// Streams the posts that `body` appends into a table of the search path, in the session's transaction.
    ///
    /// - Parameters:
    ///   - table: The table, unqualified.
    ///   - revision: The revision the posts are written at, for the posts table itself; `nil` for a table without
    ///     revisions.
    ///   - session: The session, in a transaction.
    ///   - copying: Whether to use `COPY` where it can run (the tests turn it off to try the arrays).
    ///   - body: Appends the posts.
    /// - Throws: What `body` throws; the server's error (`23505` for a repeated id); a ``PostgresSessionError``.
    static func stream(
        into table: String,
        revision: Int?,
        session: PostgresSession,
        copying: Bool = true,
        _ body: (inout PostgresPostBatch) async throws -> Void
    ) async throws {
        guard copying, let copy = PostgresCopyIn(session: session) else {
            var batch = PostgresPostBatch(.statements(session, table: table), revision: revision)
            try await body(&batch)
            try await batch.send()
            return
        }
        try await copy.run(into: table, columns: columns + (revision == nil ? [] : ["revision"])) { sender in
            var batch = PostgresPostBatch(.copy(sender), revision: revision)
            try await body(&batch)
            try await batch.send()
        }
    }

    /// Adds a post, and sends what is gathered once there is enough.
    mutating func append(_ post: Post) async throws {
        switch destination {
        case .copy:
            appendRow(post)
            if rows.readableBytes >= Self.copyChunkSize { try await send() }
        case .statements:
            appendToArrays(post)
            if arrayBytes >= Self.arrayByteLimit { try await send() }
        }
    }

    /// Sends what is gathered, and starts again.
    private mutating func send() async throws {
        switch destination {
        case .copy(let sender):
            let chunk = rows
            rows = ByteBuffer()
            rows.reserveCapacity(Self.copyChunkSize + 64 * 1024)
            try await sender.send(chunk)
        case .statements(let session, let table):
            try await insertArrays(into: table, session: session)
        }
    }

    // MARK: - COPY rows

    /// Adds a post's line: id, user id, title, body, search text (and revision), tab-separated, each text escaped
    /// for `COPY`'s text format.
    private mutating func appendRow(_ post: Post) {
        var title = post.title
        var body = post.body
        let revision = revision
        let isASCII = title.withUTF8 { title in
            body.withUTF8 { body in
                guard Self.isASCII(title), Self.isASCII(body) else { return false }
                // Each text twice (as it is, and lowercased), at most 2 bytes a byte once escaped; the numbers.
                let most = 4 * (title.count + body.count) + 80
                rows.writeWithUnsafeMutableBytes(minimumWritableBytes: most) { buffer in
                    var row = RowWriter(buffer)
                    row.number(post.id)
                    row.tab()
                    row.number(post.userId)
                    row.tab()
                    row.text(title, lowercased: false)
                    row.tab()
                    row.text(body, lowercased: false)
                    row.tab()
                    row.text(title, lowercased: true)
                    row.escaped(UInt8(ascii: "n"))
                    row.text(body, lowercased: true)
                    if let revision {
                        row.tab()
                        row.number(revision)
                    }
                    row.byte(UInt8(ascii: "\n"))
                    return row.count
                }
                return true
            }
        }
        if !isASCII { appendRowOfAnyText(post) }
    }

    /// Whether the bytes are all ASCII, where lowercasing maps `A`-`Z` alone, as `String.lowercased()` does.
    private static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var combined: UInt8 = 0
        for byte in bytes { combined |= byte }
        return combined < 0x80
    }

    /// Writes a row of ASCII text straight into the buffer, lowercasing and escaping in one pass.
    private struct RowWriter {
        private let base: UnsafeMutablePointer<UInt8>
        private(set) var count = 0

        init(_ buffer: UnsafeMutableRawBufferPointer) {
            base = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
        }

        /// One byte as it is.
        mutating func byte(_ byte: UInt8) {
            base[count] = byte
            count += 1
        }

        /// The separator between columns.
        mutating func tab() {
            byte(UInt8(ascii: "\t"))
        }

        /// A backslash and the letter after it: an escape of `COPY`'s text format.
        mutating func escaped(_ letter: UInt8) {
            byte(UInt8(ascii: "\\"))
            byte(letter)
        }

        /// A whole number in decimal.
        mutating func number(_ value: Int) {
            if value < 0 { byte(UInt8(ascii: "-")) }
            var magnitude = value.magnitude
            var digits = 1
            var rest = magnitude / 10
            while rest > 0 {
                digits += 1
                rest /= 10
            }
            for index in stride(from: count + digits - 1, through: count, by: -1) {
                base[index] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            }
            count += digits
        }

        /// ASCII text escaped as ``PostgresPostBatch/appendText(_:)`` escapes it, `A`-`Z` lowercased if asked.
        mutating func text(_ text: UnsafeBufferPointer<UInt8>, lowercased: Bool) {
            for var byte in text {
                if byte > UInt8(ascii: "\\") {
                    self.byte(byte)
                    continue
                }
                switch byte {
                case UInt8(ascii: "\\"): escaped(UInt8(ascii: "\\"))
                case UInt8(ascii: "\t"): escaped(UInt8(ascii: "t"))
                case UInt8(ascii: "\n"): escaped(UInt8(ascii: "n"))
                case UInt8(ascii: "\r"): escaped(UInt8(ascii: "r"))
                default:
                    if lowercased, byte >= UInt8(ascii: "A"), byte <= UInt8(ascii: "Z") { byte += 0x20 }
                    self.byte(byte)
                }
            }
        }
    }

    /// Adds a post's line, for text beyond ASCII: lowercased by `String.lowercased()`, then escaped.
    private mutating func appendRowOfAnyText(_ post: Post) {
        rows.writeString(String(post.id))
        rows.writeInteger(UInt8(ascii: "\t"))
        rows.writeString(String(post.userId))
        rows.writeInteger(UInt8(ascii: "\t"))
        appendText(post.title)
        rows.writeInteger(UInt8(ascii: "\t"))
        appendText(post.body)
        rows.writeInteger(UInt8(ascii: "\t"))
        appendText(post.title.lowercased())
        rows.writeStaticString("\\n")
        appendText(post.body.lowercased())
        if let revision {
            rows.writeInteger(UInt8(ascii: "\t"))
            rows.writeString(String(revision))
        }
        rows.writeInteger(UInt8(ascii: "\n"))
    }

    /// A `text` value escaped for `COPY`'s text format: a backslash, tab, line feed and carriage return as `\\`,
    /// `\t`, `\n` and `\r`; every other byte as it is.
    private mutating func appendText(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            var start = 0
            for index in bytes.indices {
                let byte = bytes[index]
                guard byte <= UInt8(ascii: "\\") else { continue }
                let escape: StaticString
                switch byte {
                case UInt8(ascii: "\\"): escape = #"\\"#
                case UInt8(ascii: "\t"): escape = #"\t"#
                case UInt8(ascii: "\n"): escape = #"\n"#
                case UInt8(ascii: "\r"): escape = #"\r"#
                default: continue
                }
                rows.writeBytes(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[start..<index])))
                rows.writeStaticString(escape)
                start = index + 1
            }
            rows.writeBytes(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[start...])))
        }
    }

    // MARK: - Arrays

    /// Adds a post to the arrays.
    private mutating func appendToArrays(_ post: Post) {
        ids.append(post.id)
        userIds.append(post.userId)
        titles.append(post.title)
        bodies.append(post.body)
        var search = post.title.lowercased()
        search += "\n"
        search += post.body.lowercased()
        searchTexts.append(search)
        arrayBytes += 2 * (post.title.utf8.count + post.body.utf8.count) + 16
    }

    /// Inserts the arrays into the table with one statement, and empties them.
    private mutating func insertArrays(into table: String, session: PostgresSession) async throws {
        guard !ids.isEmpty else { return }
        var binds = PostgresBindings(capacity: 5)
        binds.append(ids)
        binds.append(userIds)
        binds.append(titles)
        binds.append(bodies)
        binds.append(searchTexts)
        let columns = (Self.columns + (revision == nil ? [] : ["revision"])).joined(separator: ", ")
        let revisionColumn = revision.map { ", \($0)::bigint" } ?? ""
        try await session.execute(
            PostgresQuery(
                unsafeSQL: """
                    INSERT INTO \(table) (\(columns))
                    SELECT *\(revisionColumn) FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::text[],
                        $5::text[])
                    """,
                binds: binds
            )
        )
        ids.removeAll(keepingCapacity: true)
        userIds.removeAll(keepingCapacity: true)
        titles.removeAll(keepingCapacity: true)
        bodies.removeAll(keepingCapacity: true)
        searchTexts.removeAll(keepingCapacity: true)
        arrayBytes = 0
    }
}
