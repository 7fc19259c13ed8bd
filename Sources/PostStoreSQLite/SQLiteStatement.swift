import PostStore
import PostStoreCSQLite

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A prepared SQLite statement: bind values, step through rows, read columns.
///
/// Not thread-safe: it belongs to its ``SQLiteConnection`` and is used only by the code that owns that.
final class SQLiteStatement {
    private let handle: OpaquePointer
    private unowned let connection: SQLiteConnection

    init(handle: OpaquePointer, connection: SQLiteConnection) {
        self.handle = handle
        self.connection = connection
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// The SQL text the statement was prepared from.
    var sql: String { String(cString: sqlite3_sql(handle)) }

    /// Binds an integer to the 1-based parameter `index`.
    func bind(_ value: Int, at index: Int32) throws(SQLiteError) {
        try connection.check(sqlite3_bind_int64(handle, index, Int64(value)))
    }

    /// Binds text, with its exact byte length so NUL characters survive, to the 1-based parameter `index`.
    func bind(_ value: String, at index: Int32) throws(SQLiteError) {
        var value = value
        let result = value.withUTF8 { bytes in
            guard let base = bytes.baseAddress, !bytes.isEmpty else {
                return bindEmptyText(at: index)
            }
            // SQLITE_TRANSIENT: SQLite copies the bytes, which live only inside this closure.
            return base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                sqlite3_bind_text64(handle, index, $0, UInt64(bytes.count), csqlite_transient(), UInt8(SQLITE_UTF8))
            }
        }
        try connection.check(result)
    }

    /// Binds text without copying it, to the 1-based parameter `index`: the bytes must stay alive and unchanged
    /// until the statement is reset or the parameter bound again (`SQLITE_STATIC`).
    func bindWithoutCopying(_ text: UnsafeBufferPointer<UInt8>, at index: Int32) throws(SQLiteError) {
        let result =
            text.isEmpty
            ? bindEmptyText(at: index)
            : UnsafeRawPointer(text.baseAddress!).withMemoryRebound(to: CChar.self, capacity: text.count) {
                sqlite3_bind_text64(handle, index, $0, UInt64(text.count), csqlite_static(), UInt8(SQLITE_UTF8))
            }
        try connection.check(result)
    }

    /// Whether the 0-based column `index` of the current row holds exactly these bytes, compared without making a
    /// string.
    func textEquals(at index: Int32, _ text: UnsafeBufferPointer<UInt8>) -> Bool {
        let pointer = sqlite3_column_text(handle, index)
        let count = Int(sqlite3_column_bytes(handle, index))
        guard count == text.count else { return false }
        guard count > 0, let pointer, let base = text.baseAddress else { return true }
        return memcmp(pointer, base, count) == 0
    }

    /// Binds the empty string: not a NULL pointer, which would bind SQL NULL, and copied (`SQLITE_TRANSIENT`),
    /// since the C string Swift makes for `""` lives only during the call.
    private func bindEmptyText(at index: Int32) -> Int32 {
        sqlite3_bind_text(handle, index, "", 0, csqlite_transient())
    }

    /// Binds text or SQL NULL.
    func bind(_ value: String?, at index: Int32) throws(SQLiteError) {
        if let value {
            try bind(value, at: index)
        } else {
            try connection.check(sqlite3_bind_null(handle, index))
        }
    }

    /// Binds values to the parameters 1, 2, … in order.
    func bind(_ values: any SQLiteBindable...) throws(SQLiteError) {
        for (offset, value) in values.enumerated() {
            try value.bind(to: self, at: Int32(offset + 1))
        }
    }

    /// Steps once.
    ///
    /// - Returns: `true` when a row is ready to read, `false` when the statement is done.
    func step() throws(SQLiteError) -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let code: throw connection.error(code)
        }
    }

    /// Steps until the statement is done, for statements that return no rows.
    func run() throws(SQLiteError) {
        while try step() {}
    }

    /// Resets the statement and clears its bindings so it can run again.
    func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// The 0-based column `index` of the current row as an integer.
    func int(at index: Int32) -> Int {
        Int(sqlite3_column_int64(handle, index))
    }

    /// The 0-based column `index` of the current row as text, with its exact length (NUL characters kept).
    func text(at index: Int32) -> String {
        guard let bytes = sqlite3_column_text(handle, index) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, index))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    /// A function argument as text, with its exact length (NUL characters kept).
    static func text(of value: OpaquePointer?) -> String {
        guard let bytes = sqlite3_value_text(value) else { return "" }
        let count = Int(sqlite3_value_bytes(value))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    /// The 0-based column `index` as an integer, or `nil` when it is SQL NULL.
    func optionalInt(at index: Int32) -> Int? {
        sqlite3_column_type(handle, index) == SQLITE_NULL ? nil : int(at: index)
    }

    /// The 0-based column `index` as text, or `nil` when it is SQL NULL.
    func optionalText(at index: Int32) -> String? {
        sqlite3_column_type(handle, index) == SQLITE_NULL ? nil : text(at: index)
    }

    /// Runs the statement and collects one value per row.
    func rows<Row>(_ read: (SQLiteStatement) -> Row) throws(SQLiteError) -> [Row] {
        var rows: [Row] = []
        while try step() { rows.append(read(self)) }
        return rows
    }
}
