import PostStore
import PostStoreTestSupport
import Testing

/// A request to a store on a database server is handled on its connection's event loop, so that the store's
/// statement needs no thread switch; a request to any other store runs on Swift's pool, where a call that blocks
/// (a disk read, a scan) holds up no other connection.
@Suite struct EventLoopBindingTests {
    static let posts = (1...3).map { Post(userId: 1, id: $0, title: "t\($0)", body: "b\($0)") }

    /// Serves the store, asks for each post, and returns where each of its reads ran (on an event loop or not).
    private func placesOfReads(serving store: any PostStoreProtocol, _ recorder: LoopRecorder) async throws -> [Bool] {
        try await RunningServer.with(store) { client in
            for post in Self.posts {
                let answer = try await client.send("GET", "/posts/\(post.id)")
                #expect(answer.status == 200, "\(answer)")
            }
        }
        return recorder.ranOnEventLoop
    }

    @Test func aStoreOnAServerIsCalledOnTheRequestsEventLoop() async throws {
        let recorder = LoopRecorder()
        let store = LoopRecordingServerStore(base: InMemoryPostStore(posts: Self.posts), recorder: recorder)
        #expect(try await placesOfReads(serving: store, recorder) == [true, true, true])
    }

    @Test func anyOtherStoreIsCalledOnSwiftsPool() async throws {
        let recorder = LoopRecorder()
        let store = LoopRecordingStore(base: InMemoryPostStore(posts: Self.posts), recorder: recorder)
        #expect(try await placesOfReads(serving: store, recorder) == [false, false, false])
    }
}
