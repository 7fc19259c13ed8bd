import PostStore
import PostStoreTestSupport
import PostgresNIO
import Testing

@testable import PostStorePostgres

/// Posts streamed in with `COPY` (ASCII text written in one pass, other text through `String.lowercased()`) and as
/// bound arrays (the fallback) are stored alike, byte for byte: every ASCII character but NUL (which the writer
/// refuses before, as `text` cannot hold it) in both cases, backslashes, and text beyond ASCII.
@Suite(.enabled(if: PostgresTestURL.base != nil, "\(PostgresTestURL.howToEnable)"))
struct PostgresPostBatchTests {
    private static let logger = Logger(label: "PostgresPostBatchTests")

    /// Every ASCII character but NUL in titles and bodies, in both cases, around the ones `COPY` escapes; and text
    /// whose lowercase form is longer or special.
    static let posts: [Post] = {
        let ascii = String(decoding: (1...127).map { UInt8($0) }, as: UTF8.self)
        return [
            Post(userId: 1, id: 1, title: ascii, body: String(ascii.reversed())),
            Post(userId: 2, id: 2, title: "Tab\there, CR\rhere, LF\nhere", body: #"back\slash \\ \N \. end\"#),
            Post(userId: 3, id: 3, title: "CR LF\r\nEND", body: "DEL\u{7F} and \u{1}\u{1F} CONTROL"),
            Post(
                userId: 4,
                id: 4,
                title: "İstanbul ΣΊΣΥΦΟΣ Straße",
                body: "Kelvin \u{212A}, café, cafe\u{301}, 😀\tend"
            ),
            Post(userId: -5, id: -5, title: "", body: ""),
            Post(userId: Int.max, id: Int.max, title: "MAX", body: "max"),
        ]
    }()

    @Test(arguments: [true, false])
    func postsAreStoredAsWrittenWithCopyOrArrays(copying: Bool) async throws {
        let rows = try await Self.stream(Self.posts, copying: copying)
        let expected = Self.posts.sorted { $0.id < $1.id }
        #expect(rows.count == expected.count)
        for ((id, userId, title, body, searchText, revision), post) in zip(rows, expected) {
            #expect(id == post.id)
            #expect(userId == post.userId)
            #expect(Array(title.utf8) == Array(post.title.utf8), "title of \(post.id)")
            #expect(Array(body.utf8) == Array(post.body.utf8), "body of \(post.id)")
            let search = post.title.lowercased() + "\n" + post.body.lowercased()
            #expect(Array(searchText.utf8) == Array(search.utf8), "search text of \(post.id)")
            #expect(revision == 7)
        }
    }

    /// Streams posts into a temporary table shaped as the posts table, at revision 7, and reads them back.
    private static func stream(
        _ posts: [Post],
        copying: Bool
    ) async throws -> [(Int, Int, String, String, String, Int)] {
        var configuration = try PostgresStoreLocation(url: PostgresTestURL.url(schema: "unused"))
            .connectionConfiguration()
        configuration.tls = .disable
        let connection = try await PostgresConnection.connect(configuration: configuration, id: 1, logger: logger)
        do {
            let rows = try await PostgresSession.withSession(on: connection, limit: .seconds(600), logger: logger) {
                try await stream(posts, copying: copying, in: $0)
            }
            try await connection.close()
            return rows
        } catch {
            try? await connection.close()
            throw error
        }
    }

    private static func stream(
        _ posts: [Post],
        copying: Bool,
        in session: PostgresSession
    ) async throws -> [(Int, Int, String, String, String, Int)] {
        try await session.execute(
            """
            CREATE TEMPORARY TABLE t (
                id bigint, user_id bigint, title text COLLATE "C", body text COLLATE "C", search_text text,
                revision bigint
            )
            """
        )
        try await PostgresPostBatch.stream(into: "t", revision: 7, session: session, copying: copying) { batch in
            for post in posts { try await batch.append(post) }
        }
        return try await session.rows(
            "SELECT id, user_id, title, body, search_text, revision FROM t ORDER BY id",
            as: (Int, Int, String, String, String, Int).self
        )
    }
}
