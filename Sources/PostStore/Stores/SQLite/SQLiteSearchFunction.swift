import CSQLite

/// The SQL function `poststore_contains(title, body, term)`: 1 when the lowercased title or body contains `term`.
///
/// `term` is one already-lowercased search term. The trigram index answers terms of three or more characters
/// exactly; this function decides the shorter ones (and any with a NUL character) with the very same Swift code the
/// other engines use, so every engine agrees.
enum SQLiteSearchFunction {
    /// The SQL name.
    static let name = "poststore_contains"

    /// Registers the function on a connection.
    static func register(on connection: SQLiteConnection) throws(SQLiteError) {
        try connection.createFunction(name, arity: 3, callback)
    }

    /// The C entry point. A named constant rather than a closure at the call site: the Swift 6.3 compiler crashes
    /// on a `@convention(c)` closure literal passed to a typed-throws function.
    private static let callback: @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void =
        { context, _, arguments in
            guard let arguments else { return }
            let term = text(of: arguments[2])
            let found =
                text(of: arguments[0]).lowercased().containsCodePoints(of: term)
                || text(of: arguments[1]).lowercased().containsCodePoints(of: term)
            sqlite3_result_int(context, found ? 1 : 0)
        }

    private static func text(of value: OpaquePointer?) -> String {
        guard let bytes = sqlite3_value_text(value) else { return "" }
        let count = Int(sqlite3_value_bytes(value))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }
}
