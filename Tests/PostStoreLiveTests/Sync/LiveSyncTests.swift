import Foundation
import PostStore
import PostStoreEngines
import PostStoreJSONFile
import PostStoreLive
import PostStoreSQLite
import PostStoreTestSupport
import PostStoreTesting
import Testing

/// `LiveSync`, the library's sync of a configured store over its life, on real files: a new store staged and
/// published whole, a failed first sync leaving nothing, a dry run creating nothing, a follower refusing a source it
/// cannot follow before it writes. The command line's tests run the same through `poststore sync`.
@Suite struct LiveSyncTests {
    /// The file engines, whose new stores are staged.
    static let fileEngines: [StoreEngine] = [.sqlite, .json]

    @Test(arguments: fileEngines)
    func aFirstSyncBuildsTheStoreAsideAndPublishesItWhole(_ engine: StoreEngine) async throws {
        let folder = try TemporaryDirectory()
        let source = try Self.postsFile(in: folder, SamplePosts.make(count: 100))
        let path = folder.file("store.\(engine.scheme)")
        let sync = LiveSync(PostStoreConfiguration(store: StoreSpec(engine, path: path), source: .file(path: source)))

        let report = try await sync.sync()

        #expect(report.summary == WriteSummary(inserted: 100))
        let store = try PostStoreDependencies.live(
            PostStoreConfiguration(store: StoreSpec(engine, path: path), openMode: .openExisting)
        ).store
        #expect(try await store.query(.all) == SamplePosts.make(count: 100))
        #expect(try await store.syncState(for: source)?.inserted == 100)
        // Nothing of the staging is left beside the store.
        #expect(try Self.entries(of: folder).allSatisfy { !$0.hasPrefix(".") })
    }

    @Test(arguments: fileEngines)
    func aFirstSyncThatFailsLeavesNoStoreAndNoStaging(_ engine: StoreEngine) async throws {
        let folder = try TemporaryDirectory()
        let source = folder.file("broken.json")
        let valid = String(decoding: try JSONEncoder().encode(SamplePosts.make(count: 3)), as: UTF8.self)
        try Data((valid.dropLast() + ", {\"id\": }]").utf8).write(to: URL(fileURLWithPath: source))
        let path = folder.file("store.\(engine.scheme)")
        let sync = LiveSync(PostStoreConfiguration(store: StoreSpec(engine, path: path), source: .file(path: source)))

        await #expect(throws: PostStoreError.self) { try await sync.sync() }

        #expect(try Self.entries(of: folder) == ["broken.json"])
    }

    @Test func aDryRunOfAMissingStoreCreatesNothing() async throws {
        let folder = try TemporaryDirectory()
        let sync = try Self.syncOfAMissingSQLiteStore(in: folder)

        let report = try await sync.sync(SyncOptions(dryRun: true))

        #expect(report.dryRun && report.summary == WriteSummary(inserted: 10))
        #expect(try Self.entries(of: folder) == ["posts.json"])
    }

    @Test func aFollowerRefusesASourceWithoutAFeedBeforeItWritesAnything() async throws {
        let folder = try TemporaryDirectory()
        let sync = try Self.syncOfAMissingSQLiteStore(in: folder)

        let error = await #expect(throws: PostStoreError.self) {
            for try await _ in sync.follow() {}
        }

        #expect(error?.code == .invalidArgument && error?.message.contains("offers no changes feed") == true)
        #expect(try Self.entries(of: folder) == ["posts.json"])
    }

    /// The sync of `posts.sqlite` in `folder`, which does not exist, from 10 posts in `posts.json` there.
    private static func syncOfAMissingSQLiteStore(in folder: TemporaryDirectory) throws -> LiveSync {
        let source = try postsFile(in: folder, SamplePosts.make(count: 10))
        return LiveSync(
            PostStoreConfiguration(
                store: StoreSpec(.sqlite, path: folder.file("posts.sqlite")),
                source: .file(path: source)
            )
        )
    }

    /// Writes `posts` as a JSON array into `posts.json` in `folder`, and returns its path.
    private static func postsFile(in folder: TemporaryDirectory, _ posts: [Post]) throws -> String {
        let path = folder.file("posts.json")
        try JSONEncoder().encode(posts).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The names in `folder`, sorted.
    private static func entries(of folder: TemporaryDirectory) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }
}
