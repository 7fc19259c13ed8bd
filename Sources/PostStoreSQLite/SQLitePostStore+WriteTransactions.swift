import PostStoreCSQLite

extension SQLitePostStore {
    /// Runs `body` in a write transaction on the writer's connection, refusing a store whose file was deleted while
    /// open and healing a search index that disagrees with the posts.
    ///
    /// The index can disagree only when another tool wrote the posts table; FTS5 then reports `SQLITE_CORRUPT_VTAB`
    /// when PostStore removes text that was never indexed. The write is rolled back, the index rebuilt from the
    /// posts in its own transaction, and the write tried once more.
    func write<Result>(_ body: (SQLitePostTables) throws -> Result) async throws -> Result {
        do {
            do {
                return try await transaction(body)
            } catch let error as SQLiteError where error.isCorruptVirtualTable {
                try await transaction { tables in try tables.searchIndex.rebuild() }
                return try await transaction(body)
            }
        } catch let error as SQLiteError {
            throw error.postStoreError(path: path)
        }
    }

    /// Waits for the write lock, then runs `body` and commits, all without suspending: no other call on this actor
    /// can slip a statement into the transaction. The actor runs on the writer's own executor, so the whole
    /// transaction runs there, never on Swift's cooperative pool.
    ///
    /// The store is checked under the write lock, just before the commit: a store deleted at any moment before is
    /// refused and the write rolled back.
    private func transaction<Result>(_ body: (SQLitePostTables) throws -> Result) async throws -> Result {
        try await beginWriteTransaction()
        do {
            let result = try body(writer)
            try fileCheck.refuseIfMoved(writer.connection, nothingWritten: true)
            try writer.connection.execute("COMMIT")
            watcherSlot.storeDidCommit()
            return result
        } catch {
            writer.connection.rollBackOpenTransaction()
            throw error
        }
    }

    /// Takes the database's write lock (`BEGIN IMMEDIATE`), waiting up to the busy timeout for another connection
    /// to release it.
    ///
    /// The wait suspends between tries (1 ms, doubling up to 50 ms) instead of blocking inside SQLite, so a store
    /// waiting for another process holds no thread at all, and the actor runs the store's other writes meanwhile
    /// only in turn (a write begun since takes the lock first, and this one tries again after it).
    private func beginWriteTransaction() async throws {
        let deadline = clock.uptime() + busyTimeout
        var pause = Duration.milliseconds(1)
        while try !writer.connection.tryBeginWriteTransaction() {
            let now = clock.uptime()
            guard now < deadline else {
                throw SQLiteError(extendedCode: SQLITE_BUSY, message: "database is locked")
            }
            try await clock.sleep(for: min(pause, deadline - now))
            pause = min(pause * 2, .milliseconds(50))
        }
    }
}
