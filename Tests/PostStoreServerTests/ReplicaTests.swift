import Foundation
import PostStore
import PostStoreHTTP
import PostStoreSQLite
import PostStoreServer
import PostStoreTestSupport
import PostStoreTesting
import Testing

/// A replica synced from `poststore serve` by its changes feed: what moves, what is kept, and the ways back to a whole
/// copy, with a real server on 127.0.0.1.
@Suite struct ReplicaTests {
    private static let posts = SamplePosts.make(count: 40)

    private func service(_ port: Int, into store: any PostStoreProtocol) throws -> SyncService {
        SyncService(
            dataService: try HTTPPostDataService(url: URL(string: "http://127.0.0.1:\(port)/posts")!),
            store: store,
            clock: SystemClock()
        )
    }

    @Test(arguments: ServedEngine.available)
    func aReplicaMovesByChangesAloneAndPrunesOnlyWhenAsked(engine: ServedEngine) async throws {
        let folder = try TemporaryDirectory()
        let origin = try await engine.makeStore(in: folder)
        try await origin.upsert(Self.posts)
        try await RunningServer.with(origin) { client in
            let replica = try SQLitePostStore(path: folder.file("replica.sqlite"))
            let sync = try service(client.port, into: replica)
            let first = try await sync.sync()
            let copied = try await origin.changeToken()
            #expect(!first.byChanges && first.fetched == 40 && first.changeToken == copied)

            var edited = Self.posts[4]
            edited.body += " (edited)"
            try await origin.apply(PostChangeSet(upserts: [edited], deletions: [7, 8]))
            let kept = try await sync.sync()
            let edits = try await origin.changeToken()
            #expect(kept.byChanges && kept.fetched == 3 && kept.updated == 1 && kept.deleted == 0)
            #expect(kept.deletionsKept == 2 && kept.changeToken == edits)
            #expect(try await replica.post(id: 7) != nil, "without --prune, a deletion is reported and kept")

            try await origin.delete(ids: [9])
            let pruned = try await sync.sync(SyncOptions(prune: true))
            #expect(pruned.byChanges && pruned.deleted == 1 && pruned.deletionsKept == 0)
            #expect(try await replica.post(id: 9) == nil)
            #expect(try await replica.post(id: 7) != nil, "a deletion kept before stays kept")

            let nothing = try await sync.sync(SyncOptions(prune: true))
            #expect(nothing.byChanges && nothing.fetched == 0 && !nothing.summary.changedAnything)
            var whole = SyncOptions(prune: true)
            whole.usesChangeToken = false
            let full = try await sync.sync(whole)
            #expect(!full.byChanges && full.deleted == 2 && full.fetched == 37)
            #expect(try await replica.query(.all) == (try await origin.query(.all)))
        }
    }

    /// A store synced from the server before it had a feed holds an ETag and no checkpoint: the server's `304` names
    /// the state the ETag stands for, which becomes the checkpoint.
    @Test func aStoreWithAnETagAndNoCheckpointGetsOneFromA304() async throws {
        let folder = try TemporaryDirectory()
        let origin = InMemoryPostStore(posts: Self.posts)
        try await RunningServer.with(origin) { client in
            let replica = try SQLitePostStore(path: folder.file("replica.sqlite"))
            let etag = try #require(try await client.send("GET", "/posts").header("etag"))
            let source = "http://127.0.0.1:\(client.port)/posts"
            try await replica.apply(
                PostChangeSet(upserts: Self.posts, syncState: SyncState(source: source, etag: etag, syncedAt: .now))
            )
            let confirmed = try await service(client.port, into: replica).sync()
            let token = await origin.changeToken()
            #expect(confirmed.notModified && confirmed.changeToken == token)
            #expect(try await replica.syncState(for: source)?.changeToken == token)
            try await origin.delete(ids: [1])
            let next = try await service(client.port, into: replica).sync(SyncOptions(prune: true))
            #expect(next.byChanges && next.deleted == 1)
        }
    }

    @Test func aLocalWriteMakesTheNextSyncAWholeOne() async throws {
        let folder = try TemporaryDirectory()
        let origin = InMemoryPostStore(posts: Self.posts)
        try await RunningServer.with(origin) { client in
            let replica = try SQLitePostStore(path: folder.file("replica.sqlite"))
            let sync = try service(client.port, into: replica)
            try await sync.sync()
            try await replica.upsert([Post(userId: 1, id: 3, title: "local", body: "edit")])
            let again = try await sync.sync()
            #expect(!again.byChanges && again.updated == 1, "the local edit is repaired by a whole copy")
            #expect(try await replica.query(.all) == Self.posts)
        }
    }

    @Test func aSourceMadeAgainIsFetchedWholeAndTheReportSaysWhy() async throws {
        let folder = try TemporaryDirectory()
        let replica = try SQLitePostStore(path: folder.file("replica.sqlite"))
        let port = try await RunningServer.with(InMemoryPostStore(posts: Self.posts)) { client in
            try await service(client.port, into: replica).sync()
            return client.port
        }
        let remade = InMemoryPostStore(posts: Array(Self.posts.prefix(30)))
        var configuration = PostServerConfiguration()
        configuration.port = port
        try await RunningServer.with(remade, configuration: configuration, keepingPort: true) { client in
            let report = try await service(client.port, into: replica).sync(SyncOptions(prune: true))
            #expect(!report.byChanges && report.deleted == 10)
            #expect(report.refetchReason?.contains("another store") == true, "\(report)")
            #expect(try await replica.query(.all) == (try await remade.query(.all)))
        }
    }

    @Test func aTokenPastTheHistoryIsFetchedWhole() async throws {
        let folder = try TemporaryDirectory()
        let origin = InMemoryPostStore(posts: Self.posts)
        try await origin.setChangeHistoryLimit(2)
        try await RunningServer.with(origin) { client in
            let replica = try SQLitePostStore(path: folder.file("replica.sqlite"))
            let sync = try service(client.port, into: replica)
            try await sync.sync()
            for id in 1...5 { try await origin.upsert([Post(userId: 9, id: id, title: "write \(id)", body: "")]) }
            let report = try await sync.sync()
            #expect(!report.byChanges && report.updated == 5)
            #expect(report.refetchReason?.contains("older than the store's change history") == true, "\(report)")
            #expect(try await replica.query(.all) == (try await origin.query(.all)))
        }
    }

    @Test func aFollowerAppliesEachWriteAsItCommitsAndEndsWhenCancelled() async throws {
        let folder = try TemporaryDirectory()
        let origin = InMemoryPostStore(posts: Self.posts)
        try await RunningServer.with(origin) { client in
            let replica = try SQLitePostStore(path: folder.file("replica.sqlite"))
            let sync = try service(client.port, into: replica)
            var reports = sync.follow(SyncOptions(prune: true), wait: .seconds(60)).makeAsyncIterator()
            let first = try #require(try await reports.next())
            #expect(first.fetched == 40)
            for id in [3, 4] {
                try await origin.delete(ids: [id])
                let report = try #require(try await reports.next())
                #expect(report.byChanges && report.deleted == 1, "\(report)")
                #expect(try await replica.post(id: id) == nil)
            }
        }
    }
}
