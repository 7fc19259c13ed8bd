import Foundation
import PostStore
import PostStoreEngines
import PostStoreTestSupport
import PostStoreTesting
import Testing

/// A new store is built in a staging folder and linked to its path only if nothing is there: publishing never
/// replaces a file, and what a builder leaves is deleted only once no builder holds it.
@Suite struct NewStoreStagingTests {
    private let fileSystem = localFileSystem

    @Test func publishingGivesTheBuiltFileItsNameAndDiscardingLeavesNothingElse() throws {
        let directory = try TemporaryDirectory()
        let staging = try NewStoreStaging(
            finalPath: directory.file("posts.db"),
            fileSystem: fileSystem,
            clock: SystemClock()
        )
        #expect(staging.storePath.hasPrefix(directory.file(".posts.db.new-")))
        try Data("built".utf8).write(to: URL(fileURLWithPath: staging.storePath))
        try Data("sidecar".utf8).write(to: URL(fileURLWithPath: staging.storePath + "-journal"))

        #expect(try staging.publish())
        staging.discard()
        staging.discard()

        #expect(try directory.entries() == ["posts.db"])
        #expect(FileManager.default.contents(atPath: directory.file("posts.db")) == Data("built".utf8))
    }

    @Test(arguments: [false, true])
    func publishingNeverReplacesWhatAppearedMeanwhile(asFolder: Bool) throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("posts.db")
        let staging = try NewStoreStaging(finalPath: path, fileSystem: fileSystem, clock: SystemClock())
        try Data("built".utf8).write(to: URL(fileURLWithPath: staging.storePath))
        if asFolder {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        } else {
            try Data("another process's store".utf8).write(to: URL(fileURLWithPath: path))
        }

        #expect(try staging.publish() == false)
        staging.discard()

        #expect(try directory.entries() == ["posts.db"])
        if !asFolder {
            #expect(FileManager.default.contents(atPath: path) == Data("another process's store".utf8))
        }
    }

    @Test func anAbandonedFolderIsDeletedButNotOneInUseOrJustMade() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("posts.db")
        let clock = TestClock(now: Date())
        // In use: its builder (this staging) holds the lock.
        let inUse = try NewStoreStaging(finalPath: path, fileSystem: fileSystem, clock: clock)
        // Abandoned: made like a killed builder's (a store, a lock file nobody holds).
        let abandoned = directory.file(".posts.db.new-ABANDONED")
        try FileManager.default.createDirectory(atPath: abandoned, withIntermediateDirectories: false)
        try Data("half a store".utf8).write(to: URL(fileURLWithPath: abandoned + "/posts.db"))
        try Data().write(to: URL(fileURLWithPath: abandoned + "/building.lock"))
        // Another store's folder, and a file that only looks alike: never touched.
        let otherStore = directory.file(".posts.db2.new-ABANDONED")
        try FileManager.default.createDirectory(atPath: otherStore, withIntermediateDirectories: false)
        try Data().write(to: URL(fileURLWithPath: otherStore + "/building.lock"))

        // Just made: the builder may not have locked it yet.
        NewStoreStaging.removeAbandonedFolders(of: path, fileSystem: fileSystem, clock: clock)
        #expect(FileManager.default.fileExists(atPath: abandoned + "/posts.db"))

        clock.advance(by: .seconds(11))
        NewStoreStaging.removeAbandonedFolders(of: path, fileSystem: fileSystem, clock: clock)
        #expect(!FileManager.default.fileExists(atPath: abandoned))
        #expect(FileManager.default.fileExists(atPath: inUse.storePath.parentFolderPath + "/building.lock"))
        #expect(FileManager.default.fileExists(atPath: otherStore + "/building.lock"))

        // Once its builder is gone, the other staging folder is abandoned too.
        inUse.discard()
        #expect(try directory.entries().sorted() == [".posts.db2.new-ABANDONED"])
    }
}
