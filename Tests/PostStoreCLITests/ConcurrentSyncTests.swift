import Foundation
import PostStore
import PostStoreTesting
import Testing

/// Two `poststore sync` processes into one store at once, from different sources, pruning: the store ends holding
/// exactly one source's posts, never a mixture (issue 3's "two processes on one SQLite or JSON file").
@Suite struct ConcurrentSyncTests {
    @Test(arguments: ["posts.sqlite", "json:posts.json"])
    func twoProcessesSyncingOneStoreEndInOneSourcesState(store: String) async throws {
        let sandbox = try Sandbox()
        let first = Array(SamplePosts.make(count: 3_000).prefix(2_000))
        var second = Array(SamplePosts.make(count: 3_000).suffix(2_000))
        for index in second.indices { second[index].title += " (second)" }
        try sandbox.write(first, to: "first.json")
        try sandbox.write(second, to: "second.json")

        for _ in 0..<3 {
            async let a = sandbox.run(["sync", "--from", "first.json", "--store", store, "--prune", "--force"])
            async let b = sandbox.run(["sync", "--from", "second.json", "--store", store, "--prune", "--force"])
            let (resultA, resultB) = try await (a, b)

            #expect(resultA.exitCode == 0, "\(resultA)")
            #expect(resultB.exitCode == 0, "\(resultB)")
            let final = try await sandbox.posts(in: store)
            #expect(final == first || final == second, "a mixture of \(final.count) posts")
        }
    }
}
