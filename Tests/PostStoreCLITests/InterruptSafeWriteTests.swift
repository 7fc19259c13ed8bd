import Foundation
import PostStore
import PostStoreLive
import PostStoreTestSupport
import PostStoreTesting
import Testing

@testable import PostStoreCLI

/// A command's write and its commit, as signals see them: a signal before the commit stops the process, one after it
/// lets the command finish, whether the store is new, existing, or created by another process meanwhile.
@Suite struct InterruptSafeWriteTests {
    /// A folder of the test's own (each test gets a new instance of the suite).
    let folder: TemporaryDirectory
    /// The store written, `posts.sqlite` in the folder.
    let spec: StoreSpec
    /// The gate the writes tell of their commits.
    let spy = SignalSpy()

    init() throws {
        folder = try TemporaryDirectory()
        spec = StoreSpec(.sqlite, path: folder.file("posts.sqlite"))
    }

    @Test func aNewStoreIsPublishedAndCommittedWhenTheWriteReturns() async throws {
        let write = spy.write(deliveringAfterCommit: SIGTERM)

        let result = try await write.run(
            into: spec,
            intoNewStore: { staged in
                #expect(staged != spec, "a new store is staged")
                try await Self.write(SamplePosts.make(count: 3), into: staged, isStaged: true)
                spy.deliver(SIGINT)
                return "new"
            },
            intoExistingStore: { _ in
                Issue.record("no store existed")
                return "existing"
            }
        )

        #expect(result == "new")
        #expect(spy.actions == [.stop, .letThrough], "stopped while staging, let through after the publication")
        #expect(try await Self.posts(in: spec) == SamplePosts.make(count: 3))
    }

    @Test func anExistingStoreIsCommittedWhenItsWriteSaysSo() async throws {
        try await Self.write(SamplePosts.make(count: 2), into: spec)
        let write = spy.write(deliveringAfterCommit: SIGHUP)

        let result = try await write.run(
            into: spec,
            intoNewStore: { _ in
                Issue.record("the store exists")
                return "new"
            },
            intoExistingStore: { committed in
                try await Self.write(SamplePosts.make(count: 4), into: spec)
                spy.deliver(SIGTERM)
                committed()
                spy.deliver(SIGINT)
                return "existing"
            }
        )

        #expect(result == "existing")
        #expect(spy.actions == [.stop, .letThrough, .letThrough])
        #expect(spy.stops.isEmpty)
        #expect(try await Self.posts(in: spec) == SamplePosts.make(count: 4))
    }

    /// Another process creates the store while the write stages it: that store is left as it is and
    /// written into, as any later write would be.
    @Test func aStoreCreatedMeanwhileIsWrittenInto() async throws {
        let write = spy.write(deliveringAfterCommit: SIGTERM)

        let result = try await write.run(
            into: spec,
            intoNewStore: { staged in
                try await Self.write(SamplePosts.make(count: 3), into: staged, isStaged: true)
                try await Self.write(SamplePosts.make(count: 2, firstId: 100), into: spec)
                return "new"
            },
            intoExistingStore: { committed in
                try await Self.write(SamplePosts.make(count: 3), into: spec)
                committed()
                return "existing"
            }
        )

        #expect(result == "existing")
        #expect(spy.actions == [.letThrough])
        #expect(spy.stops.isEmpty)
        #expect(
            try await Self.posts(in: spec) == SamplePosts.make(count: 3) + SamplePosts.make(count: 2, firstId: 100)
        )
        let folders = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { name in
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(atPath: folder.file(name), isDirectory: &isFolder)
                && isFolder.boolValue
        }
        #expect(folders.isEmpty, "the staging folder is deleted")
    }

    /// Writes `posts` into the store at `spec`, creating it when it is missing, and releases the store.
    private static func write(_ posts: [Post], into spec: StoreSpec, isStaged: Bool = false) async throws {
        let store = try await StoreOptions.store(
            spec,
            openMode: .createIfMissing,
            isStaged: isStaged
        )
        _ = try await store.apply(PostChangeSet(upserts: posts))
    }

    /// Every post of the store at `spec`.
    private static func posts(in spec: StoreSpec) async throws -> [Post] {
        try await StoreOptions.store(spec, openMode: .openExisting).query(.all)
    }
}
