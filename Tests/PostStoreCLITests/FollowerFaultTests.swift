import Foundation
import PostStore
import PostStoreSQLite
import PostStoreTestSupport
import PostStoreTesting
import Testing

/// A follower and its server meeting faults as processes: the follower killed mid-write, the server restarted, the
/// server's store deleted and made again at the same place.
@Suite struct FollowerFaultTests {
    /// Runs `serve` on `store` at `port` (0 for one the system chooses) until `body` returns.
    private func serving<Result>(
        _ sandbox: Sandbox,
        _ store: String,
        port: Int = 0,
        _ body: (Int) async throws -> Result
    ) async throws -> Result {
        let control = ChildControl()
        async let served = sandbox.run(
            ["serve", "--store", store, "--port", String(port), "--allow-writes", "--quiet"],
            control: control
        )
        let result: Result
        do {
            result = try await body(try await control.servedPort())
        } catch {
            control.send(SIGTERM)
            _ = try? await served
            throw error
        }
        control.send(SIGTERM)
        #expect(try await served.exitCode == 0)
        return result
    }

    /// The posts and checkpoint of a replica, read from one state (its checkpoint unchanged around the read).
    private func replicaState(_ path: String, source: String) async throws -> (posts: [Post], token: ChangeToken?) {
        let replica = try SQLitePostStore(path: path, mode: .openExisting)
        while true {
            let before = try await replica.syncState(for: source)?.changeToken
            let posts = try await replica.query(.all)
            if try await replica.syncState(for: source)?.changeToken == before { return (posts, before) }
        }
    }

    /// Waits until `condition` holds while `follower` runs; a condition that throws (the replica not made yet) does
    /// not hold. A follower that has ended fails the wait (its result says why).
    private func waitUntil(_ follower: ChildControl, _ condition: () async throws -> Bool) async throws {
        while (try? await condition()) != true {
            guard !follower.hasEnded else { throw FollowerEnded() }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    private struct FollowerEnded: Error, CustomStringConvertible {
        var description: String { "the follower ended before the replica got there" }
    }

    @Test func aFollowerKilledMidWriteResumesFromItsCheckpoint() async throws {
        let sandbox = try Sandbox()
        let generations = (0..<4).map { generation in
            SamplePosts.make(count: 20_000).map { post in
                var post = post
                post.title = "generation \(generation) \(post.title)"
                return post
            }
        }
        try await sandbox.seed(generations[0], into: "a.sqlite")
        let origin = try SQLitePostStore(path: sandbox.path("a.sqlite"), mode: .openExisting)
        var held: [ChangeToken: [Post]] = [try await origin.changeToken(): generations[0]]
        try await serving(sandbox, "a.sqlite") { port in
            let source = "http://127.0.0.1:\(port)/posts"
            for generation in 1..<4 {
                let control = ChildControl()
                async let following = sandbox.run(
                    ["sync", "--from", source, "--store", "b.sqlite", "--follow", "--quiet"],
                    control: control
                )
                // Once the follower stands at the source's state, a large write; the follower is killed at some
                // moment of it: before, during or after it applies it.
                let current = try await origin.changeToken()
                do {
                    try await waitUntil(control) {
                        try await replicaState(sandbox.path("b.sqlite"), source: source).token == current
                    }
                } catch {
                    control.send(SIGKILL)
                    _ = try? await following
                    throw error
                }
                try await origin.upsert(generations[generation])
                held[try await origin.changeToken()] = generations[generation]
                try await Task.sleep(for: .milliseconds(40 * generation))
                control.send(SIGKILL)
                _ = try await following
                let (posts, token) = try await replicaState(sandbox.path("b.sqlite"), source: source)
                let checkpoint = try #require(token, "every write of the follower has its checkpoint")
                #expect(posts == held[checkpoint], "the replica holds the state its checkpoint names")
            }
            let resumed = try await sandbox.run(["sync", "--from", source, "--store", "b.sqlite", "--format", "json"])
            #expect(resumed.exitCode == 0, "\(resumed)")
            #expect(try await replicaState(sandbox.path("b.sqlite"), source: source).posts == generations[3])
        }
    }

    @Test func aFollowerFindsARestartedServerAndAStoreMadeAgain() async throws {
        let sandbox = try Sandbox()
        try await sandbox.seed(SamplePosts.make(count: 30), into: "a.sqlite")
        let port = try await serving(sandbox, "a.sqlite") { $0 }
        let source = "http://127.0.0.1:\(port)/posts"
        let control = ChildControl()
        async let following = sandbox.run(
            ["sync", "--from", source, "--store", "b.sqlite", "--prune", "--force", "--follow", "--wait", "2"],
            control: control
        )
        // The follower runs until stopped: a failed step must not leave the test waiting for it.
        do {
            try await followThroughFaults(sandbox, port: port, source: source, follower: control)
        } catch {
            control.send(SIGKILL)
            _ = try? await following
            throw error
        }
        control.send(SIGTERM)
        let result = try await following
        #expect(result.exitCode == 0, "\(result)")
        #expect(result.errorOutput.contains("could not tell the changes since the last sync"), "\(result)")
        #expect(result.outputLines.count >= 3, "\(result)")
    }

    /// The server's faults, each waited out by the follower: up late, restarted, its store made again.
    private func followThroughFaults(
        _ sandbox: Sandbox,
        port: Int,
        source: String,
        follower control: ChildControl
    ) async throws {
        // The follower starts while no server listens: it waits with its retries.
        try await serving(sandbox, "a.sqlite", port: port) { _ in
            try await waitUntil(control) {
                try await replicaState(sandbox.path("b.sqlite"), source: source).posts.count == 30
            }
        }
        // Down: the store changes; up again at the same port.
        let origin = try SQLitePostStore(path: sandbox.path("a.sqlite"), mode: .openExisting)
        try await origin.delete(ids: [1, 2])
        try await serving(sandbox, "a.sqlite", port: port) { _ in
            try await waitUntil(control) {
                try await replicaState(sandbox.path("b.sqlite"), source: source).posts.count == 28
            }
        }
        // The store deleted and made again with other posts.
        for suffix in ["", "-wal", "-shm"] {
            try? FileManager.default.removeItem(atPath: sandbox.path("a.sqlite" + suffix))
        }
        try await sandbox.seed(SamplePosts.make(count: 20, firstId: 100), into: "a.sqlite")
        try await serving(sandbox, "a.sqlite", port: port) { _ in
            try await waitUntil(control) {
                try await replicaState(sandbox.path("b.sqlite"), source: source).posts
                    == SamplePosts.make(count: 20, firstId: 100)
            }
        }
    }
}
