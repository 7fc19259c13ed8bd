public import PostStore

extension SQLitePostStore {
    public nonisolated func post(id: Int) async throws -> Post? {
        try await read { tables in try tables.storedPost(id: id) }
    }

    public nonisolated func query(_ query: PostQuery) async throws -> [Post] {
        try query.validate()
        return try await read { tables in try tables.query(query) }
    }

    public nonisolated func count() async throws -> Int {
        try await read { tables in try tables.storedCount() }
    }
}
