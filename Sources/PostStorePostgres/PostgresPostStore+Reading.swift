import Foundation
public import PostStore
package import PostStoreEngines
import PostgresNIO

extension PostgresPostStore {
    public func post(id: Int) async throws -> Post? {
        let statement: PostgresQuery = "SELECT user_id, title, body FROM \(unescaped: names.posts) WHERE id = \(id)"
        return try await read { session in
            try await session.preparedRows(statement).first.map { row in
                let (userId, title, body) = try row.decode((Int, String, String).self)
                return Post(userId: userId, id: id, title: title, body: body)
            }
        }
    }

    /// Answers a query with one statement. Without a search, the statement is prepared and its rows read at once
    /// when the window holds at most 256 posts (`PostgresSession.boundedRowCount`); a larger window asks for 256
    /// first, and runs again, streamed, when that many come. A search's SQL differs from one search to the next, and
    /// its rows are streamed. Streamed rows are taken on the connection's event loop as they arrive, never falling behind
    /// them (postgres-nio 1.33.2 stops the process when a connection closes under a reader that is behind).
    public func query(_ query: PostQuery) async throws -> [Post] {
        try query.validate()
        if query.ids?.isEmpty == true || query.userIds?.isEmpty == true { return [] }
        let plan = PostgresQueryPlan(query, posts: names.posts)
        let bound = PostgresSession.boundedRowCount
        return try await read { session in
            if !plan.searches {
                let rows = try await session.preparedRows(plan.rows(limitedTo: bound))
                if rows.count < bound || plan.windowIsAtMost(bound) { return try rows.map(Self.post(in:)) }
            }
            return try await posts(plan.rows(), in: session)
        }
    }

    /// Every post a statement of `id, user_id, title, body` selects, in its order.
    func posts(_ statement: PostgresQuery, in session: PostgresSession) async throws -> [Post] {
        let posts = PostgresCollectedRows<Post>()
        try await session.forEachRow(statement) { row in posts.append(try Self.post(in: row)) }
        return posts.all
    }

    /// The post in a row of `id, user_id, title, body`.
    static func post(in row: PostgresRow) throws -> Post {
        let (id, userId, title, body) = try row.decode((Int, Int, String, String).self)
        return Post(userId: userId, id: id, title: title, body: body)
    }

    public func count() async throws -> Int {
        try await read { session in
            try await session.value("SELECT count(*) FROM \(unescaped: names.posts)", as: Int.self)
        }
    }

    public func syncState(for source: String) async throws -> SyncState? {
        try await read { session in
            try await syncStates(
                in: session,
                "\(unescaped: selectSyncState) WHERE source = \(source)"
            ).first
        }
    }

    public func syncStates() async throws -> [SyncState] {
        try await read { session in try await storedSyncStates(in: session) }
    }

    func storedSyncStates(in session: PostgresSession) async throws -> [SyncState] {
        try await syncStates(
            in: session,
            "\(unescaped: selectSyncState) ORDER BY synced_at_ms DESC, source"
        )
    }

    func storedChangeToken(for source: String, in session: PostgresSession) async throws -> ChangeToken? {
        try await session.rows(
            "SELECT change_token FROM \(unescaped: names.syncState) WHERE source = \(source)",
            as: String?.self
        ).first.flatMap { $0.flatMap(ChangeToken.init) }
    }

    func storedETag(for source: String, in session: PostgresSession) async throws -> String? {
        try await session.rows(
            "SELECT etag FROM \(unescaped: names.syncState) WHERE source = \(source)",
            as: String?.self
        ).first.flatMap { $0 }
    }

    func latestSyncedAt(otherThan source: String, in session: PostgresSession) async throws -> Int64? {
        try await session.value(
            """
            SELECT max(synced_at_ms) FROM \(unescaped: names.syncState) WHERE source <> \(source)
            """,
            as: Int64?.self
        )
    }

    func save(_ state: SyncState, in session: PostgresSession) async throws {
        try await session.execute(
            """
            INSERT INTO \(unescaped: names.syncState)
                (source, etag, synced_at_ms, fetched, inserted, updated, unchanged, deleted, change_token)
            VALUES (\(state.source), \(state.etag),
                \(state.syncedAtMilliseconds), \(state.fetched), \(state.inserted), \(state.updated),
                \(state.unchanged), \(state.deleted), \(state.changeToken?.description))
            ON CONFLICT (source) DO UPDATE SET etag = excluded.etag, synced_at_ms = excluded.synced_at_ms,
                fetched = excluded.fetched, inserted = excluded.inserted, updated = excluded.updated,
                unchanged = excluded.unchanged, deleted = excluded.deleted, change_token = excluded.change_token
            """
        )
    }

    private var selectSyncState: String {
        """
        SELECT source, etag, synced_at_ms, fetched, inserted, updated, unchanged, deleted, change_token
        FROM \(names.syncState)
        """
    }

    private func syncStates(in session: PostgresSession, _ query: PostgresQuery) async throws -> [SyncState] {
        try await session.rows(
            query,
            as: (String, String?, Int64, Int, Int, Int, Int, Int, String?).self
        ).map {
            var state = SyncState(
                source: $0.0,
                etag: $0.1,
                syncedAt: .init(timeIntervalSince1970: 0),
                fetched: $0.3,
                inserted: $0.4,
                updated: $0.5,
                unchanged: $0.6,
                deleted: $0.7
            )
            state.syncedAtMilliseconds = $0.2
            state.changeToken = $0.8.flatMap(ChangeToken.init)
            return state
        }
    }
}

extension PostgresPostStore: StoreDescribing {
    /// The count, the sync states and the schema version from one snapshot.
    package func describe() async throws -> StoreDescription {
        try await read { session in
            try await session.snapshot { session in
                StoreDescription(
                    count: try await session.value("SELECT count(*) FROM \(unescaped: names.posts)", as: Int.self),
                    syncStates: try await storedSyncStates(in: session),
                    formatVersion: try await session.value(
                        "SELECT max(version) FROM \(unescaped: names.migrations)",
                        as: Int?.self
                    )
                )
            }
        }
    }
}
