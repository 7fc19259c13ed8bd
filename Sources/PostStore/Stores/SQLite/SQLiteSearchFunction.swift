import CSQLite

/// The SQL functions PostStore registers on each connection, implemented with the same Swift code as the other
/// engines so that every engine agrees:
///
/// - `poststore_contains(title, body, term)`: 1 when the lowercased title or body contains `term`, one
///   already-lowercased search term. Decides every term, on the candidates the search index leaves.
/// - `poststore_index_text(text)`: the indexed form of a title or body, for rebuilding the index in one statement.
enum SQLiteSearchFunction {
    /// The SQL name of the matching function.
    static let containsName = "poststore_contains"

    /// The SQL name of the function that computes indexed text.
    static let indexTextName = "poststore_index_text"

    /// Registers both functions on a connection.
    static func register(on connection: SQLiteConnection) throws(SQLiteError) {
        try connection.createFunction(containsName, arity: 3, contains)
        try connection.createFunction(indexTextName, arity: 1, indexText)
    }

    // Named constants rather than closures at the call site: the Swift 6.3 compiler crashes on a
    // `@convention(c)` closure literal passed to a typed-throws function.

    private static let contains: @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void =
        { context, _, arguments in
            guard let arguments else { return }
            let term = text(of: arguments[2])
            let found =
                text(of: arguments[0]).lowercased().containsCodePoints(of: term)
                || text(of: arguments[1]).lowercased().containsCodePoints(of: term)
            sqlite3_result_int(context, found ? 1 : 0)
        }

    private static let indexText:
        @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void =
            { context, _, arguments in
                guard let arguments else { return }
                var result = SQLiteSearchIndex.text(text(of: arguments[0]))
                result.withUTF8 { bytes in
                    guard let base = bytes.baseAddress, !bytes.isEmpty else {
                        return sqlite3_result_text(context, "", 0, csqlite_static())
                    }
                    base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                        sqlite3_result_text(context, $0, Int32(bytes.count), csqlite_transient())
                    }
                }
            }

    private static func text(of value: OpaquePointer?) -> String {
        guard let bytes = sqlite3_value_text(value) else { return "" }
        let count = Int(sqlite3_value_bytes(value))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }
}
