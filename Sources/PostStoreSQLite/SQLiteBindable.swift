import PostStore

/// A Swift value that binds to a statement parameter.
protocol SQLiteBindable {
    /// Binds the value to the 1-based parameter `index` of `statement`.
    func bind(to statement: SQLiteStatement, at index: Int32) throws(SQLiteError)
}

extension Int: SQLiteBindable {
    func bind(to statement: SQLiteStatement, at index: Int32) throws(SQLiteError) {
        try statement.bind(self, at: index)
    }
}

extension Int64: SQLiteBindable {
    func bind(to statement: SQLiteStatement, at index: Int32) throws(SQLiteError) {
        try statement.bind(Int(self), at: index)
    }
}

extension String: SQLiteBindable {
    func bind(to statement: SQLiteStatement, at index: Int32) throws(SQLiteError) {
        try statement.bind(self, at: index)
    }
}

extension Optional: SQLiteBindable where Wrapped == String {
    func bind(to statement: SQLiteStatement, at index: Int32) throws(SQLiteError) {
        try statement.bind(self, at: index)
    }
}
