import Foundation
import PostStoreTesting
import Testing

/// What `poststore` draws on a real terminal (tmux), read off the screen: each phase's line left behind, no
/// debris, lines that fit, and a clean line for Ctrl-C's message.
@Suite(.enabled(if: TmuxScreen.isAvailable, "needs tmux"), .serialized)
struct ProgressScreenTests {
    private static let postCount = 30_000

    /// `poststore` with `arguments`, in the sandbox's folder and environment, on a terminal tmux describes.
    private static func command(_ sandbox: Sandbox, _ arguments: String) throws -> String {
        let environment = sandbox.environment.merging(["TERM": "tmux-256color"]) { $1 }
        return "cd \(TmuxScreen.quoted(sandbox.path("."))) && \(TmuxScreen.env(environment)) "
            + "\(TmuxScreen.quoted(try PostStoreExecutable.url().path)) \(arguments)"
    }

    /// The last screen of a first sync of ``postCount`` posts into a new SQLite store, on a terminal `width` wide.
    private static func firstSyncScreen(width: Int, extraArguments: String = "") async throws -> [String] {
        let sandbox = try Sandbox()
        try sandbox.write(SamplePosts.make(count: postCount), to: "posts.json")
        let screen = try TmuxScreen(
            try command(sandbox, "sync --from posts.json --store new.sqlite" + extraArguments),
            width: width
        )
        defer { screen.close() }
        return try await screen.finalScreen()
    }

    @Test func aFirstSyncLeavesALineForEachPhaseThenItsReport() async throws {
        let lines = try await Self.firstSyncScreen(width: 200)

        try #require(lines.count == 3, "\(lines)")
        #expect(
            lines[0].wholeMatch(of: /Reading posts\.json: 30,000 posts, \d+\.\d MiB in \d+\.\d s/) != nil,
            "\(lines)"
        )
        #expect(lines[1].wholeMatch(of: /Building the search index: 30,000 rows in \d+\.\d s/) != nil, "\(lines)")
        #expect(lines[2].hasPrefix("Synced posts.json into sqlite:new.sqlite: 30000 fetched, 30000 inserted"))
    }

    @Test func onANarrowTerminalEveryProgressLineFits() async throws {
        let lines = try await Self.firstSyncScreen(width: 40, extraArguments: " --format json")

        // Two progress lines, their labels cut to keep the counts and times, then the JSON report (which the
        // terminal wraps: it is the output).
        try #require(lines.count >= 3, "\(lines)")
        #expect(lines[0].wholeMatch(of: /Reading post.*\.\.\.: 30,000 posts in \d+\.\d s/) != nil, "\(lines)")
        #expect(lines[1].wholeMatch(of: /Building the .*\.\.\.: 30,000 rows in \d+\.\d s/) != nil, "\(lines)")
        #expect(lines[0].count <= 39 && lines[1].count <= 39, "\(lines)")
        #expect(lines[2].hasPrefix("{"), "\(lines)")
    }

    @Test func ctrlCReplacesTheLiveLineWithItsMessage() async throws {
        let sandbox = try Sandbox()
        // A FIFO keeps the sync reading: this test writes a first part of the posts and holds the FIFO open.
        let fifo = sandbox.path("fifo.ndjson")
        #expect(mkfifo(fifo, 0o644) == 0)
        let descriptor = open(fifo, O_RDWR)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        let payload = SamplePosts.jsonLines(SamplePosts.make(count: 5000)) + Data("\n".utf8)
        // Blocks until poststore has read it all: on a thread of its own.
        Thread {
            payload.withUnsafeBytes { bytes in
                var offset = 0
                while offset < bytes.count {
                    let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                    guard written > 0 else { return }
                    offset += written
                }
            }
        }
        .start()
        let screen = try TmuxScreen(try Self.command(sandbox, "sync --from fifo.ndjson --store new.sqlite"), width: 200)
        defer { screen.close() }

        let live = try await screen.wait { $0.first?.hasPrefix("Reading fifo.ndjson  4,096 posts") == true }
        try #require(live.first?.hasPrefix("Reading fifo.ndjson  4,096 posts") == true, "\(live)")
        try screen.send("C-c")
        let lines = try await screen.finalScreen()

        #expect(
            lines == [
                "poststore: stopped by SIGINT; no store was left half-written (unfinished work is not applied)."
            ],
            "\(lines)"
        )
        #expect(!sandbox.exists("new.sqlite"))
    }
}
