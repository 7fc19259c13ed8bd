import Foundation
import PostStore
import PostStoreSQLite
import PostStoreTestSupport
import PostStoreTesting
import Testing

/// A follower and its server meeting faults as processes: the follower killed mid-write, the server restarted, the
/// server's store deleted and made again at the same place. Each step waits for what the follower says: a report on
/// standard output once a write has committed, a progress line on standard error as its phases end.
@Suite struct FollowerFaultTests {
    /// The posts and checkpoint of a replica, read from one state (its checkpoint unchanged around the read).
    private func replicaState(_ path: String, source: String) async throws -> (posts: [Post], token: ChangeToken?) {
        let replica = try SQLitePostStore(path: path, mode: .openExisting)
        while true {
            let before = try await replica.syncState(for: source)?.changeToken
            let posts = try await replica.query(.all)
            if try await replica.syncState(for: source)?.changeToken == before { return (posts, before) }
        }
    }

    /// The moment of a large write of the source at which a follower is killed.
    private enum Moment: CaseIterable {
        /// As soon as the source has committed it, before the follower can have fetched it.
        case beforeFetching
        /// Once the follower has read the answer into its store, before it commits.
        case beforeCommitting
        /// Once the follower has reported the write committed.
        case afterCommitting
    }

    @Test func aFollowerKilledMidWriteResumesFromItsCheckpoint() async throws {
        let sandbox = try Sandbox()
        let generations = (0...Moment.allCases.count).map { generation in
            SamplePosts.make(count: 20_000).map { post in
                var post = post
                post.title = "generation \(generation) \(post.title)"
                return post
            }
        }
        try await sandbox.seed(generations[0], into: "a.sqlite")
        let origin = try SQLitePostStore(path: sandbox.path("a.sqlite"), mode: .openExisting)
        var held: [ChangeToken: [Post]] = [try await origin.changeToken(): generations[0]]
        try await sandbox.serving("a.sqlite") { port in
            let source = "http://127.0.0.1:\(port)/posts"
            for (generation, moment) in zip(1..., Moment.allCases) {
                let current = try await origin.changeToken()
                let result = try await sandbox.following(
                    ["--from", source, "--store", "b.sqlite", "--follow", "--format", "json", "--progress"],
                    stoppedBy: SIGKILL
                ) { follower in
                    // The follower stands at the source's state, then a large write comes.
                    try await follower.report { $0["changeToken"] as? String == current.description }
                    try await origin.upsert(generations[generation])
                    let written = try await origin.changeToken()
                    held[written] = generations[generation]
                    switch moment {
                    case .beforeFetching:
                        break
                    case .beforeCommitting:
                        try await follower.firstLine(of: .error) {
                            $0.contains("Reading the downloaded posts: ") && !$0.contains(": 0 posts")
                        }
                    case .afterCommitting:
                        try await follower.report { $0["changeToken"] as? String == written.description }
                    }
                }
                #expect(result.exitCode != 0, "killed: \(result)")
                let (posts, token) = try await replicaState(sandbox.path("b.sqlite"), source: source)
                let checkpoint = try #require(token, "every write of the follower has its checkpoint")
                #expect(posts == held[checkpoint], "killed \(moment): the replica holds the state its checkpoint names")
            }
            let resumed = try await sandbox.run(["sync", "--from", source, "--store", "b.sqlite", "--format", "json"])
            #expect(resumed.exitCode == 0, "\(resumed)")
            #expect(try await replicaState(sandbox.path("b.sqlite"), source: source).posts == generations.last)
        }
    }

    @Test func aFollowerFindsARestartedServerAndAStoreMadeAgain() async throws {
        let sandbox = try Sandbox()
        try await sandbox.seed(SamplePosts.make(count: 30), into: "a.sqlite")
        let port = try await sandbox.serving("a.sqlite") { $0 }
        let source = "http://127.0.0.1:\(port)/posts"
        func token() async throws -> String {
            try await SQLitePostStore(path: sandbox.path("a.sqlite"), mode: .openExisting).changeToken().description
        }
        let result = try await sandbox.following(
            [
                "--from", source, "--store", "b.sqlite", "--prune", "--force", "--follow", "--wait", "2", "--format",
                "json",
            ],
            stoppedBy: SIGTERM
        ) { follower in
            // The follower starts while no server listens: it waits with its retries.
            let first = try await token()
            try await sandbox.serving("a.sqlite", port: port) { _ in
                try await follower.report { $0["changeToken"] as? String == first }
            }
            // Down: the store changes; up again at the same port.
            try await SQLitePostStore(path: sandbox.path("a.sqlite"), mode: .openExisting).delete(ids: [1, 2])
            let second = try await token()
            try await sandbox.serving("a.sqlite", port: port) { _ in
                try await follower.report { $0["changeToken"] as? String == second }
            }
            #expect(try await replicaState(sandbox.path("b.sqlite"), source: source).posts.count == 28)
            // The store deleted and made again with other posts.
            for suffix in ["", "-wal", "-shm"] {
                try? FileManager.default.removeItem(atPath: sandbox.path("a.sqlite" + suffix))
            }
            try await sandbox.seed(SamplePosts.make(count: 20, firstId: 100), into: "a.sqlite")
            let third = try await token()
            try await sandbox.serving("a.sqlite", port: port) { _ in
                try await follower.report { $0["changeToken"] as? String == third }
            }
            let replica = try await replicaState(sandbox.path("b.sqlite"), source: source).posts
            #expect(replica == SamplePosts.make(count: 20, firstId: 100))
        }
        #expect(result.exitCode == 0, "\(result)")
        #expect(result.errorOutput.contains("could not tell the changes since the last sync"), "\(result)")
        #expect(result.outputLines.count >= 3, "\(result)")
    }
}
