import Foundation
@_spi(FileSystem) import PostStore
import PostStoreJSONFile
import PostStoreTestSupport
import PostStoreTesting
import Testing

/// The JSON store's file work runs on its own queue, never on Swift's cooperative pool.
@Suite("JSON store's executor")
struct JSONFileExecutorTests {
    @Test("more stores than the cooperative pool has threads read their files at once")
    func storesReadAtOnceOffThePool() async throws {
        let directory = try TemporaryDirectory()
        // One more than the pool's threads (one a core): if the stores read on the pool, at most that many could
        // be inside a read at once, and the last store could never join the others.
        let count = ProcessInfo.processInfo.activeProcessorCount + 1
        let fileSystem = MeetingFileSystem(count: count)
        let stores = try (0..<count).map { index in
            try JSONFilePostStore(
                path: directory.file("posts\(index).json"),
                mode: .createIfMissing,
                lockTimeout: .seconds(5),
                fileSystem: fileSystem,
                clock: SystemClock()
            )
        }
        fileSystem.startMeeting()
        try await withThrowingTaskGroup(of: Int.self) { group in
            for store in stores { group.addTask { try await store.count() } }
            for try await count in group { #expect(count == 0) }
        }
        #expect(fileSystem.allMet, "only \(fileSystem.arrivals) of \(count) stores were reading at once")
    }
}

/// The local file system, except that once a meeting starts, each of the first `count` looks at a file's identity
/// blocks its thread until all `count` have arrived (a ``ThreadGate``).
private final class MeetingFileSystem: FileSystemProtocol {
    private let real = localFileSystem
    private let count: Int
    private let gate = ThreadGate()
    /// Whether the meeting started, and how many looks have joined it.
    private let joined = LockedState((isMeeting: false, count: 0))
    /// Whether every look that joined saw all `count` arrive.
    private let allArrived = LockedState(true)

    init(count: Int) { self.count = count }

    func startMeeting() { joined.withLock { $0.isMeeting = true } }
    var arrivals: Int { gate.arrived }
    var allMet: Bool { gate.arrived >= count && allArrived.withLock { $0 } }

    func identityOfFile(atPath path: String) throws -> FileIdentity? {
        let joins = joined.withLock { joined in
            guard joined.isMeeting, joined.count < count else { return false }
            joined.count += 1
            return true
        }
        if joins, !gate.arriveAndWait(forAll: count) { allArrived.withLock { $0 = false } }
        return try real.identityOfFile(atPath: path)
    }

    func resolvingSymbolicLinks(inPath path: String) throws -> String {
        try real.resolvingSymbolicLinks(inPath: path)
    }
    func isWritableFile(atPath path: String) -> Bool { real.isWritableFile(atPath: path) }
    func contentsOfFile(atPath path: String) throws -> Data? { try real.contentsOfFile(atPath: path) }
    func contentsOfStandardInput() throws -> Data { try real.contentsOfStandardInput() }
    func openFileForReading(atPath path: String) throws -> (any ReadableFile)? {
        try real.openFileForReading(atPath: path)
    }
    func writeNewFile(atPath path: String, contents: Data, permissions: UInt16?) throws {
        try real.writeNewFile(atPath: path, contents: contents, permissions: permissions)
    }
    func synchronizeFile(atPath path: String) throws { try real.synchronizeFile(atPath: path) }
    func moveItem(atPath source: String, toPath destination: String) throws {
        try real.moveItem(atPath: source, toPath: destination)
    }
    func synchronizeDirectory(atPath path: String) throws { try real.synchronizeDirectory(atPath: path) }
    func removeFile(atPath path: String) throws { try real.removeFile(atPath: path) }
    func createDirectory(atPath path: String) throws { try real.createDirectory(atPath: path) }
    func removeDirectory(atPath path: String) throws { try real.removeDirectory(atPath: path) }
    func linkFile(atPath path: String, toNewPath newPath: String) throws -> Bool {
        try real.linkFile(atPath: path, toNewPath: newPath)
    }
    func contentsOfDirectory(atPath path: String) throws -> [String] {
        try real.contentsOfDirectory(atPath: path)
    }
    func tryLockExclusively(onFile lockPath: String) throws -> (any FileLock)? {
        try real.tryLockExclusively(onFile: lockPath)
    }
}
