import PostStore
import PostStoreTestSupport
import Testing

/// A request to a store on a database server is handled on its connection's event loop, so that the store's
/// statement needs no thread switch; a request to any other store runs on Swift's pool, where a call that blocks
/// (a disk read, a scan) holds up no other connection.
@Suite struct EventLoopBindingTests {
    static let posts = (1...3).map { Post(userId: 1, id: $0, title: "t\($0)", body: "b\($0)") }

    @Test func aStoreOnAServerIsCalledOnTheRequestsEventLoop() async throws {
        let recorder = LoopRecorder()
        let store = LoopRecordingServerStore(base: InMemoryPostStore(posts: Self.posts), recorder: recorder)
        try await RunningServer.with(store) { client in
            for id in 1...3 {
                let answer = try await client.send("GET", "/posts/\(id)")
                #expect(answer.status == 200, "\(answer)")
            }
        }
        #expect(recorder.ranOnEventLoop == [true, true, true])
    }

    @Test func anyOtherStoreIsCalledOnSwiftsPool() async throws {
        let recorder = LoopRecorder()
        let store = LoopRecordingStore(base: InMemoryPostStore(posts: Self.posts), recorder: recorder)
        try await RunningServer.with(store) { client in
            for id in 1...3 {
                let answer = try await client.send("GET", "/posts/\(id)")
                #expect(answer.status == 200, "\(answer)")
            }
        }
        #expect(recorder.ranOnEventLoop == [false, false, false])
    }
}
