import PostStoreSQLite
import PostStoreTestSupport
import Testing

#if os(Linux)
@Suite("SQLite store: a held changes request wakes at another connection's commit")
struct SQLiteFileWakeTests {
    @Test("the commit's file events wake the watcher, which otherwise sleeps")
    func anotherConnectionsCommitWakesTheWatcher() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("posts.sqlite")
        let watched = try SQLitePostStore(path: path)
        try await expectWatcherWokenByFiles(watched: watched, writer: try SQLitePostStore(path: path))
    }
}
#endif
