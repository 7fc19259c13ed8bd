import NIOPosix
import PostStore
@_spi(ServerStore) import PostStoreEngines
import PostStoreTestSupport
import Synchronization

/// Where a store's reads ran: on one of NIO's event loops, or elsewhere (Swift's pool).
final class LoopRecorder: Sendable {
    private let calls = Mutex<[Bool]>([])

    /// Whether each read ran on an event loop, in order.
    var ranOnEventLoop: [Bool] { calls.withLock { $0 } }

    func record() {
        let onLoop = MultiThreadedEventLoopGroup.currentEventLoop != nil
        calls.withLock { $0.append(onLoop) }
    }
}

/// A file-like store (its calls may block) that records where its reads of one post run.
struct LoopRecordingStore: ForwardsReadsToMemory {
    let base: InMemoryPostStore
    let recorder: LoopRecorder

    func apply(_ changes: PostChangeSet) async throws -> WriteSummary { try await base.apply(changes) }
    func post(id: Int) async throws -> Post? {
        recorder.record()
        return try await base.post(id: id)
    }
}

/// A store on a database server (its calls await the network) that records where its reads of one post run.
struct LoopRecordingServerStore: ForwardsReadsToMemory, ServerStore {
    let base: InMemoryPostStore
    let recorder: LoopRecorder

    func migrate() async throws {}
    func apply(_ changes: PostChangeSet) async throws -> WriteSummary { try await base.apply(changes) }
    func post(id: Int) async throws -> Post? {
        recorder.record()
        return try await base.post(id: id)
    }
}
