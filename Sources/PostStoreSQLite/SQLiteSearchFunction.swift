import PostStore
import PostStoreCSQLite

/// The SQL functions PostStore registers on each connection, implemented with the same Swift code as the other
/// engines so that every engine agrees:
///
/// - `poststore_matches(title, body, search)`: 1 when the post matches the search text, as
///   ``TextSearch/matches(title:body:)`` decides. The search is parsed once per statement (SQLite keeps the parsed
///   form as the argument's auxiliary data while the bound value stays the same).
/// - `poststore_index_text(text)`: the indexed form of a title or body, for rebuilding the index in one statement.
enum SQLiteSearchFunction {
    /// The SQL name of the matching function.
    static let matchesName = "poststore_matches"

    /// The SQL name of the function that computes indexed text.
    static let indexTextName = "poststore_index_text"

    /// Registers both functions on a connection.
    static func register(on connection: SQLiteConnection) throws(SQLiteError) {
        try connection.createFunction(matchesName, arity: 3, matches)
        try connection.createFunction(indexTextName, arity: 1, indexText)
    }

    /// A parsed search, kept by SQLite between rows.
    private final class ParsedSearch {
        let search: TextSearch
        init(_ search: TextSearch) { self.search = search }
    }

    // Named constants rather than closures at the call site: the Swift 6.3 compiler crashes on a
    // `@convention(c)` closure literal passed to a typed-throws function.

    private static let matches: @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void =
        { context, _, arguments in
            guard let arguments else { return }
            let search: TextSearch
            if let kept = sqlite3_get_auxdata(context, 2) {
                search = Unmanaged<ParsedSearch>.fromOpaque(kept).takeUnretainedValue().search
            } else {
                search = TextSearch(SQLiteStatement.text(of: arguments[2]))
                let box = Unmanaged.passRetained(ParsedSearch(search)).toOpaque()
                // SQLite owns the box from here and releases it (perhaps at once) through `releaseParsedSearch`.
                sqlite3_set_auxdata(context, 2, box, releaseParsedSearch)
            }
            let found = search.matches(
                title: SQLiteStatement.text(of: arguments[0]),
                body: SQLiteStatement.text(of: arguments[1])
            )
            sqlite3_result_int(context, found ? 1 : 0)
        }

    private static let releaseParsedSearch: @convention(c) (UnsafeMutableRawPointer?) -> Void = { box in
        guard let box else { return }
        Unmanaged<ParsedSearch>.fromOpaque(box).release()
    }

    private static let indexText:
        @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void =
            { context, _, arguments in
                guard let arguments else { return }
                var result = SQLiteSearchIndex.text(SQLiteStatement.text(of: arguments[0]))
                result.withUTF8 { bytes in
                    guard let base = bytes.baseAddress, !bytes.isEmpty else {
                        return sqlite3_result_text(context, "", 0, csqlite_static())
                    }
                    base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                        sqlite3_result_text64(context, $0, UInt64(bytes.count), csqlite_transient(), UInt8(SQLITE_UTF8))
                    }
                }
            }
}
