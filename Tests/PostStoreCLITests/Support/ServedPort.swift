import PostStoreTestSupport
import Testing

extension ChildControl {
    /// The port a `poststore serve` child listens on, read from its "serving … at http://HOST:PORT/posts" line.
    ///
    /// Start the server with `--port 0` and let the system choose: a port found free beforehand and handed over can
    /// be taken by another test's server in between (it happened in CI, and the test then talked to that server).
    func servedPort() async throws -> Int {
        let line = try await firstErrorLine { $0.hasPrefix("poststore: serving ") }
        let match = try #require(line.firstMatch(of: /at http:\/\/[^ ]*:(\d+)\/posts/), "no port in \(line)")
        return try #require(Int(match.1))
    }
}
