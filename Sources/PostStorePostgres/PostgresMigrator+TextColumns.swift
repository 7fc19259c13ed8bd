import PostStore
import PostgresNIO

extension PostgresMigrator {
    /// The migration that turns titles, bodies, sources and ETags from bytes into text (`0006_text_columns.sql`).
    static let textColumnsVersion = 6

    /// Refuses, before the text-columns migration, a store holding a post or a sync state whose text has a NUL
    /// character: text cannot hold one, and the migration would fail on it with the server's own words. The store
    /// is left as it was (the caller's transaction is rolled back) and the message names the posts.
    func checkTextFitsTextColumns(_ session: PostgresSession) async throws {
        let nul = "'\\x00'::bytea"
        let posts = try await session.rows(
            """
            SELECT id FROM \(unescaped: names.posts)
            WHERE position(\(unescaped: nul) IN title) > 0 OR position(\(unescaped: nul) IN body) > 0
            ORDER BY id LIMIT 6
            """,
            as: Int.self
        ).map { "\($0)" }
        if !posts.isEmpty {
            throw PostStoreError(
                .invalidData,
                "The PostgreSQL store \(names.schema) at \(server) holds posts with a NUL character "
                    + "(ids \(Self.some(of: posts))), which this PostStore's text columns cannot hold; it was left "
                    + "untouched. Delete or change those posts with the PostStore that wrote them, then open it again."
            )
        }
        let sources = try await session.value(
            """
            SELECT count(*) FROM \(unescaped: names.syncState)
            WHERE position(\(unescaped: nul) IN source) > 0 OR position(\(unescaped: nul) IN coalesce(etag, '')) > 0
            """,
            as: Int.self
        )
        if sources > 0 {
            throw PostStoreError(
                .invalidData,
                "The PostgreSQL store \(names.schema) at \(server) holds \(sources) sync state(s) whose source or "
                    + "ETag has a NUL character, which this PostStore's text columns cannot hold; it was left "
                    + "untouched. Remove them with the PostStore that wrote them, then open it again."
            )
        }
    }
}
