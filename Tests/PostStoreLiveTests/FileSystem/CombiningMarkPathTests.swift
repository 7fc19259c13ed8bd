import Foundation
@_spi(FileSystem) import PostStore
import PostStoreJSONFile
import PostStoreTestSupport
import PostStoreTesting
import Testing

@testable import PostStoreSQLite

/// Paths whose `/` is followed by a combining mark: to Swift's `Character`s the two are one, `"/\u{301}"`, which is
/// not `"/"`; to the file system the slash is a byte like any other. Every path question is asked of the bytes.
@Suite struct CombiningMarkPathTests {
    @Test func anAbsolutePathStaysAbsoluteForSQLite() {
        #expect(SQLitePostStore.fileName(for: "/\u{301}x.sqlite").utf8.elementsEqual("/\u{301}x.sqlite".utf8))
        #expect(SQLitePostStore.fileName(for: "./\u{301}x.sqlite").utf8.elementsEqual("./\u{301}x.sqlite".utf8))
    }

    @Test func aLinkToAnAbsoluteTargetIsFollowedThere() throws {
        let directory = try TemporaryDirectory()
        let link = directory.file("link.json")
        let target = "/\u{301}poststore-nowhere/posts.json"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)

        let resolved = try localFileSystem.resolvingSymbolicLinks(inPath: link)

        #expect(resolved.utf8.elementsEqual(target.utf8), "\(resolved.debugDescription)")
    }

    @Test func aJSONStoreNamedWithALeadingMarkIsWrittenInItsFolder() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("\u{301}posts.json")

        _ = try await JSONFilePostStore(path: path).upsert(SamplePosts.make(count: 3))

        #expect(try await JSONFilePostStore(path: path, mode: .openExisting).count() == 3)
        let names = try directory.entries().map { Array($0.utf8) }
        #expect(names.contains(Array("\u{301}posts.json".utf8)), "\(names)")
    }

    /// Cleaning up after a crashed writer deletes this store's temporary files only, not those of a store whose name
    /// is canonically equivalent (`"é"` precomposed and `"e\u{301}"`: equal as `String`s, other files on disk).
    @Test func aStoreLeavesTheTemporaryFilesOfAnEquivalentNameAlone() async throws {
        let directory = try TemporaryDirectory()
        let other = directory.file(".e\u{301}.json.tmp-0000")
        try Data("{}".utf8).write(to: URL(fileURLWithPath: other))

        _ = try await JSONFilePostStore(path: directory.file("\u{E9}.json")).upsert(SamplePosts.make(count: 1))

        #expect(try directory.entries().contains { $0.utf8.elementsEqual(".e\u{301}.json.tmp-0000".utf8) })
    }
}
