import Foundation
import PostStore
import PostStoreCSQLite

/// PostStore's own thin helper over one libsqlite3 connection: the only code that calls the SQLite C API.
///
/// It opens with explicit flags and extended result codes, turns every failing result code into a
/// ``SQLiteError``, prepares statements once and caches them by SQL text, and runs transactions. It is not
/// thread-safe; ``SQLitePostStore`` owns one and serializes every use of it.
final class SQLiteConnection {
    /// The database file.
    let path: String

    private let handle: OpaquePointer
    private var busyMilliseconds: Int32
    private var cachedStatements: [String: SQLiteStatement] = [:]

    /// Opens a connection.
    ///
    /// - Parameters:
    ///   - path: The database file.
    ///   - create: Whether a missing file is created.
    ///   - busyTimeout: How long a statement waits for another connection's lock before failing with `SQLITE_BUSY`.
    init(path: String, create: Bool, busyTimeout: Duration) throws(SQLiteError) {
        self.path = path
        var handle: OpaquePointer?
        let flags =
            SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0) | SQLITE_OPEN_NOMUTEX
            | SQLITE_OPEN_EXRESCODE
        let result = sqlite3_open_v2(path, &handle, flags, nil)
        guard result == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(result))
            sqlite3_close_v2(handle)
            throw SQLiteError(extendedCode: result, message: message)
        }
        self.handle = handle
        busyMilliseconds = Self.milliseconds(busyTimeout)
        sqlite3_busy_timeout(handle, busyMilliseconds)
    }

    /// Sets how long a statement waits inside SQLite (blocking its thread) for another connection's lock.
    func setBusyTimeout(_ busyTimeout: Duration) {
        busyMilliseconds = Self.milliseconds(busyTimeout)
        sqlite3_busy_timeout(handle, busyMilliseconds)
    }

    /// Tries to start a write transaction (`BEGIN IMMEDIATE`) without waiting.
    ///
    /// - Returns: `true` when the transaction started, `false` when another connection holds the write lock.
    func tryBeginWriteTransaction() throws(SQLiteError) -> Bool {
        sqlite3_busy_timeout(handle, 0)
        defer { sqlite3_busy_timeout(handle, busyMilliseconds) }
        let result = sqlite3_exec(handle, "BEGIN IMMEDIATE", nil, nil, nil)
        if result == SQLITE_OK { return true }
        if result & 0xFF == SQLITE_BUSY, sqlite3_get_autocommit(handle) != 0 { return false }
        throw error(result)
    }

    /// Rolls back the transaction in progress, if there is one; a rollback that fails leaves nothing to do.
    func rollBackOpenTransaction() {
        if sqlite3_get_autocommit(handle) == 0 {
            try? execute("ROLLBACK")
        }
    }

    /// A duration as whole milliseconds for SQLite, clamped to what its Int32 holds (about 24 days): a huge
    /// duration means "wait long", a negative one "do not wait".
    static func milliseconds(_ duration: Duration) -> Int32 {
        let (seconds, overflow) = duration.components.seconds.multipliedReportingOverflow(by: 1000)
        guard !overflow else { return duration < .zero ? 0 : .max }
        let (total, overflowAgain) = seconds.addingReportingOverflow(
            duration.components.attoseconds / 1_000_000_000_000_000
        )
        guard !overflowAgain else { return duration < .zero ? 0 : .max }
        return Int32(clamping: max(0, total))
    }

    deinit {
        cachedStatements.removeAll()  // Finalizes them before the connection closes.
        sqlite3_close_v2(handle)
    }

    /// Runs one or more statements that return no rows, such as a migration script.
    func execute(_ sql: String) throws(SQLiteError) {
        var message: UnsafeMutablePointer<CChar>?
        let result = sqlite3_exec(handle, sql, nil, nil, &message)
        defer { sqlite3_free(message) }
        if result != SQLITE_OK {
            throw SQLiteError(
                extendedCode: sqlite3_extended_errcode(handle),
                message: message.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(result))
            )
        }
    }

    /// Runs `body` with a prepared statement for `sql`, prepared once per connection and reset after each use.
    func withStatement<Result>(
        _ sql: String,
        _ body: (SQLiteStatement) throws(SQLiteError) -> Result
    ) throws(SQLiteError) -> Result {
        let statement = try cachedStatement(sql)
        defer { statement.reset() }
        return try body(statement)
    }

    /// The statement for `sql`, prepared once per connection; the caller resets it after each use. For loops
    /// that run one statement many times, where looking it up by its text each time would cost more than running
    /// it.
    func cachedStatement(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        if let cached = cachedStatements[sql] { return cached }
        var prepared: OpaquePointer?
        try check(sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &prepared, nil))
        guard let prepared else {
            throw SQLiteError(extendedCode: SQLITE_MISUSE, message: "no statement in \"\(sql)\"")
        }
        let statement = SQLiteStatement(handle: prepared, connection: self)
        cachedStatements[sql] = statement
        return statement
    }

    /// Runs `body` in a transaction that takes the write lock at once (`BEGIN IMMEDIATE`), so two writers queue on
    /// the busy timeout instead of failing mid-way; commits when `body` returns and rolls back when it throws.
    func writeTransaction<Result>(_ body: () throws -> Result) throws -> Result {
        try transaction("BEGIN IMMEDIATE", body)
    }

    /// Runs `body` in a read transaction (`BEGIN DEFERRED`), so all its statements see one snapshot.
    func readTransaction<Result>(_ body: () throws -> Result) throws -> Result {
        try transaction("BEGIN DEFERRED", body)
    }

    private func transaction<Result>(_ begin: String, _ body: () throws -> Result) throws -> Result {
        try execute(begin)
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            // Never leave a transaction open: a write would hold the lock, a read would pin an old snapshot and
            // keep the WAL from shrinking.
            rollBackOpenTransaction()
            throw error
        }
    }

    /// Whether `path` holds a database that has been written to: a file (a database, or anything else) that is not
    /// empty, or whose write-ahead log is not empty. Lets opening an existing store say "not found" before SQLite
    /// says "cannot open".
    ///
    /// SQLite reads an empty file as an empty database, and a first sync killed before its first commit leaves one
    /// behind; counting it as no store keeps reading commands from writing a schema into it. A file that cannot be
    /// inspected counts as there, so opening it reports the real error.
    static func databaseExists(atPath path: String) -> Bool {
        func sizeOfFile(_ path: String) -> Int64? {
            var info = stat()
            return stat(path, &info) == 0 ? Int64(info.st_size) : (errno == ENOENT ? nil : 1)
        }
        guard let size = sizeOfFile(path) else { return false }
        return size > 0 || (sizeOfFile(path + "-wal") ?? 0) > 0
    }

    /// Whether the database file was deleted or renamed since the connection opened it.
    func fileHasMoved() -> Bool {
        var moved: Int32 = 0
        return sqlite3_file_control(handle, "main", SQLITE_FCNTL_HAS_MOVED, &moved) == SQLITE_OK && moved != 0
    }

    /// Registers a deterministic SQL function of `arity` text arguments that returns an integer.
    ///
    /// - Parameters:
    ///   - name: The SQL name.
    ///   - arity: How many arguments it takes.
    ///   - function: The C callback; it reads its arguments with `sqlite3_value_*`.
    func createFunction(
        _ name: String,
        arity: Int32,
        _ function: @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void
    ) throws(SQLiteError) {
        let flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS
        try check(sqlite3_create_function_v2(handle, name, arity, flags, nil, function, nil, nil, nil))
    }

    /// Runs `body` while the SQL function `name(x)` exists: it returns `x` and counts its calls, telling `counted`
    /// the count after every `interval` calls. A statement that calls it once per row reports its own progress,
    /// however long it runs, without being cut into statements of its own.
    func withRowCounter<Result>(
        named name: String,
        every interval: Int,
        _ counted: (Int) -> Void,
        _ body: () throws -> Result
    ) throws -> Result {
        try withoutActuallyEscaping(counted) { counted in
            let counter = RowCounter(interval: max(1, interval), counted: counted)
            // SQLite holds the counter unretained: `counter` outlives the function, removed before it goes.
            try check(
                sqlite3_create_function_v2(
                    handle,
                    name,
                    1,
                    SQLITE_UTF8,
                    Unmanaged.passUnretained(counter).toOpaque(),
                    RowCounter.count,
                    nil,
                    nil,
                    nil
                )
            )
            defer { sqlite3_create_function_v2(handle, name, 1, SQLITE_UTF8, nil, nil, nil, nil, nil) }
            return try withExtendedLifetime(counter) { try body() }
        }
    }

    /// Throws the connection's current error unless `result` is `SQLITE_OK`.
    func check(_ result: Int32) throws(SQLiteError) {
        if result != SQLITE_OK { throw error(result) }
    }

    /// The connection's current error, for a failing `result`.
    func error(_ result: Int32) -> SQLiteError {
        SQLiteError(extendedCode: sqlite3_extended_errcode(handle), message: String(cString: sqlite3_errmsg(handle)))
    }
}

/// The state of a row-counting SQL function (see ``SQLiteConnection/withRowCounter(named:every:_:_:)``): used on the
/// connection's thread only, by one statement at a time.
private final class RowCounter {
    let interval: Int
    let counted: (Int) -> Void
    var count = 0

    init(interval: Int, counted: @escaping (Int) -> Void) {
        self.interval = interval
        self.counted = counted
    }

    /// The function's body: counts the call, reports every `interval`-th, and returns its argument.
    static let count: @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void = {
        context,
        _,
        arguments in
        guard let arguments, let data = sqlite3_user_data(context) else { return }
        let counter = Unmanaged<RowCounter>.fromOpaque(data).takeUnretainedValue()
        counter.count += 1
        if counter.count % counter.interval == 0 { counter.counted(counter.count) }
        sqlite3_result_value(context, arguments[0])
    }
}
