import PostStore

/// A store's read connections beside its one writer, as GRDB's `DatabasePool` keeps them: a read takes an idle
/// reader, or opens one while fewer than ``capacity`` are open, or waits for the first to come back.
///
/// While fewer slow reads than readers are in flight, a fast read never waits behind a slow one, and reads run on
/// every core. Readers are reused most recent first, so a store read one call at a time keeps one warm connection.
final class SQLiteReaderPool: Sendable {
    private struct State {
        var idle: [SQLiteReader] = []
        var opened = 0
        /// Reads waiting for a reader, first come first served.
        var waiting: [CheckedContinuation<SQLiteReader, Never>] = []
    }

    /// How many readers the pool opens at most.
    let capacity: Int
    private let makeReader: @Sendable () -> SQLiteReader
    private let state = LockedState(State())

    /// - Parameters:
    ///   - capacity: How many readers the pool opens at most (at least 1).
    ///   - makeReader: Makes a reader (which opens its connection on its first read).
    init(capacity: Int, makeReader: @escaping @Sendable () -> SQLiteReader) {
        self.capacity = max(1, capacity)
        self.makeReader = makeReader
    }

    /// Runs `body` on a reader's connection, waiting (suspended) for one when all are busy.
    ///
    /// - Throws: What `body` throws; ``SQLiteError`` when a reader's connection cannot be opened.
    func read<Result: Sendable>(_ body: @Sendable (SQLitePostTables) throws -> Result) async throws -> Result {
        let reader = await take()
        defer { give(reader) }
        return try await reader.read(body)
    }

    private func take() async -> SQLiteReader {
        if let reader = state.withLock({ takeOrOpen(&$0) }) { return reader }
        return await withCheckedContinuation { continuation in
            // Asked again under the lock that `give` takes: a reader given back since the first look is not missed.
            let reader = state.withLock { state in
                let reader = takeOrOpen(&state)
                if reader == nil { state.waiting.append(continuation) }
                return reader
            }
            if let reader { continuation.resume(returning: reader) }
        }
    }

    private func takeOrOpen(_ state: inout State) -> SQLiteReader? {
        if let reader = state.idle.popLast() { return reader }
        guard state.opened < capacity else { return nil }
        state.opened += 1
        return makeReader()
    }

    private func give(_ reader: SQLiteReader) {
        let waiter = state.withLock { state -> CheckedContinuation<SQLiteReader, Never>? in
            if state.waiting.isEmpty {
                state.idle.append(reader)
                return nil
            }
            return state.waiting.removeFirst()
        }
        waiter?.resume(returning: reader)
    }
}
