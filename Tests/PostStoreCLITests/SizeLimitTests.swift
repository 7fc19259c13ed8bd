import Foundation
import PostStore
import PostStoreTesting
import Testing

@testable import PostStoreCLI

/// `--max-post-size` and `--max-payload-size`: a source past either limit fails with exit 65 and one line before
/// anything is written; a raised limit lets it through.
@Suite struct SizeLimitTests {
    @Test(arguments: [
        ("1", 1), ("1500", 1500), ("64K", 64 << 10), ("64kib", 64 << 10), ("2M", 2 << 20), ("2 MB", 2 << 20),
        ("1G", 1 << 30), ("3GiB", 3 << 30),
    ])
    func sizesParseWithBinaryUnits(text: String, bytes: Int) {
        #expect(ByteSize(argument: text)?.bytes == bytes)
    }

    @Test(arguments: ["", "0", "-1", "1.5M", "12Q", "M", "99999999999999999999", "9999999999999G"])
    func badSizesAreRefused(text: String) {
        #expect(ByteSize(argument: text) == nil)
    }

    @Test func aPostPastTheLimitIsRefusedAndARaisedLimitTakesIt() async throws {
        let sandbox = try Sandbox()
        try await sandbox.seed(SamplePosts.make(count: 10), into: "posts.sqlite")
        var posts = SamplePosts.make(count: 3)
        posts[1].body = String(repeating: "é", count: 600_000)  // 1.2 MB of UTF-8
        try sandbox.write(posts, to: "large.json")
        let before = sandbox.contents(of: "posts.sqlite")

        let refused = try await sandbox.run(["sync", "--from", "large.json", "--store", "posts.sqlite"])
        let unchanged = sandbox.contents(of: "posts.sqlite")
        let accepted = try await sandbox.run(
            ["sync", "--from", "large.json", "--store", "posts.sqlite", "--max-post-size", "2M", "--prune", "--force"]
        )

        #expect(refused.exitCode == 65, "\(refused)")
        #expect(refused.errorLines.count == 1, "\(refused)")
        #expect(refused.errorOutput.hasPrefix("poststore: Cannot use the posts in large.json: The post at index 1"))
        #expect(refused.errorOutput.contains("larger than the limit of 1 MiB per post"), "\(refused)")
        #expect(unchanged == before)
        #expect(accepted.exitCode == 0, "\(accepted)")
        #expect(try await sandbox.posts(in: "posts.sqlite") == posts)
    }

    @Test func standardInputPastThePayloadLimitIsRefused() async throws {
        let sandbox = try Sandbox()
        try await sandbox.seed(SamplePosts.make(count: 10), into: "json:posts.json")
        let before = try sandbox.snapshot()

        let result = try await sandbox.run(
            ["sync", "--from", "-", "--store", "json:posts.json", "--max-payload-size", "1K"],
            input: SamplePosts.json(SamplePosts.make(count: 100))
        )

        #expect(result.exitCode == 65, "\(result)")
        #expect(result.errorLines.count == 1, "\(result)")
        #expect(result.errorOutput.contains("Standard input is larger than the limit of 1 KiB"), "\(result)")
        #expect(try sandbox.snapshot() == before)
    }

    @Test(arguments: ["--max-post-size", "--max-payload-size"])
    func aBadSizeIsAUsageError(option: String) async throws {
        let sandbox = try Sandbox()

        let result = try await sandbox.run(["sync", "--from", "x.json", "--store", "s.sqlite", option, "0"])

        #expect(result.exitCode == 64, "\(result)")
        #expect(result.errorOutput.contains(option), "\(result)")
        #expect(!sandbox.exists("s.sqlite"))
    }
}
