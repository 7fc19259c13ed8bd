import PostStoreJSONFile
import PostStoreTestSupport
import Testing

#if os(Linux)
@Suite("JSON-file store: a held changes request wakes when another instance replaces the file")
struct JSONFileWakeTests {
    @Test("the file's replacement wakes the watcher, which otherwise sleeps")
    func anotherInstancesWriteWakesTheWatcher() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("posts.json")
        let watched = try JSONFilePostStore(path: path)
        try await expectWatcherWokenByFiles(watched: watched, writer: try JSONFilePostStore(path: path))
    }
}
#endif
