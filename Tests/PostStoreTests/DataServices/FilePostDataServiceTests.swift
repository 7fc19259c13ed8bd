import Foundation
@_spi(FileSystem) import PostStore
import PostStoreTestSupport
import PostStoreTesting
import Synchronization
import Testing

@Suite("Reading posts from a file")
struct FilePostDataServiceTests {
    enum Format: String, CaseIterable, Sendable {
        case array, lines

        func encode(_ posts: [Post]) -> Data {
            self == .array ? SamplePosts.json(posts) : SamplePosts.jsonLines(posts)
        }
    }

    /// Collects the progress events a service reports.
    final class ProgressLog: Sendable {
        private let storage = Mutex<[SyncProgress]>([])

        var events: [SyncProgress] { storage.withLock { $0 } }

        func request() -> PostFetchRequest {
            PostFetchRequest { event in self.storage.withLock { $0.append(event) } }
        }
    }

    private static let posts = SamplePosts.make(count: 25)

    @Test("a file in either format gives its posts as one page without an ETag", arguments: Format.allCases)
    func readsAFile(format: Format) async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("posts.\(format == .array ? "json" : "ndjson")")
        try format.encode(Self.posts).write(to: URL(fileURLWithPath: path))
        let service = FilePostDataService(path: path)
        #expect(service.source == path)
        #expect(try await service.collectPosts(PostFetchRequest()) == .posts(Self.posts, etag: nil, pages: 1))
    }

    @Test("the live convenience initializer takes size limits, and a post over them is refused")
    func theConvenienceInitializerTakesLimits() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("posts.json")
        try SamplePosts.json(Self.posts).write(to: URL(fileURLWithPath: path))
        let limits = PayloadLimits(maximumPostBytes: 16)
        let service = FilePostDataService(path: path, limits: limits)

        #expect(service.limits == limits)
        #expect(FilePostDataService(path: path).limits == PayloadLimits())
        let error = await #expect(throws: PostStoreError.self) { try await service.collectPosts(PostFetchRequest()) }
        #expect(error?.code == .invalidData)
    }

    @Test("`-` reads standard input", arguments: Format.allCases)
    func readsStandardInput(format: Format) async throws {
        let service = FilePostDataService(
            path: FilePostDataService.standardInputPath,
            fileSystem: FailingFileSystem(standardInput: format.encode(Self.posts))
        )
        #expect(service.source == "standard input")
        #expect(try await service.collectPosts(PostFetchRequest()) == .posts(Self.posts, etag: nil, pages: 1))
    }

    @Test("every reader of a stream starts from the first post, for a file and for standard input (a retried write)")
    func everyReaderStartsOver() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("posts.json")
        try SamplePosts.json(Self.posts).write(to: URL(fileURLWithPath: path))
        let services = [
            FilePostDataService(path: path),
            FilePostDataService(
                path: FilePostDataService.standardInputPath,
                fileSystem: FailingFileSystem(standardInput: SamplePosts.json(Self.posts))
            ),
        ]
        for service in services {
            guard case .posts(let stream, _, _) = try await service.streamPosts(PostFetchRequest()) else {
                Issue.record("\(service.source) was not modified")
                continue
            }
            for _ in 1...2 {
                var reader = try stream.makeReader()
                #expect(try reader.readAll() == Self.posts, "\(service.source)")
            }
        }
    }

    @Test("progress reports a reading phase: its start, each batch, and its end with every post and byte")
    func reportsAReadingPhase() async throws {
        let log = ProgressLog()
        let payload = SamplePosts.json(Self.posts)
        let service = FilePostDataService(path: "-", fileSystem: FailingFileSystem(standardInput: payload))
        _ = try await service.collectPosts(log.request())
        #expect(
            log.events == [
                .working(WorkProgress(phase: .reading, completed: 0, bytes: 0, totalBytes: payload.count)),
                .working(WorkProgress(phase: .reading, completed: 25, bytes: payload.count, totalBytes: payload.count)),
                .working(
                    WorkProgress(
                        phase: .reading,
                        completed: 25,
                        total: 25,
                        bytes: payload.count,
                        totalBytes: payload.count,
                        isFinished: true
                    )
                ),
            ]
        )
    }

    @Test("a missing file is sourceNotFound, naming the path")
    func missingFile() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("absent.json")
        let error = await #expect(throws: PostStoreError.self) {
            try await FilePostDataService(path: path).collectPosts(PostFetchRequest())
        }
        #expect(error?.code == .sourceNotFound)
        #expect(error?.message == "There is no input file at \(path).")
        #expect(error?.path == path)
    }

    @Test("a folder is no input file: sourceNotFound, naming the path")
    func directory() async throws {
        let directory = try TemporaryDirectory()
        let error = await #expect(throws: PostStoreError.self) {
            try await FilePostDataService(path: directory.path).collectPosts(PostFetchRequest())
        }
        #expect(error?.code == .sourceNotFound)
        #expect(error?.message == "\(directory.path) is a folder, not a file of posts.")
        #expect(error?.path == directory.path)
    }

    @Test("a read failing with a foreign error is an ioFailure that keeps the cause")
    func foreignReadError() async throws {
        let service = FilePostDataService(
            path: "/any/posts.json",
            fileSystem: FailingFileSystem(failing: .readWithForeignError)
        )
        let error = await #expect(throws: PostStoreError.self) { try await service.collectPosts(PostFetchRequest()) }
        #expect(error?.code == .ioFailure)
        #expect(error?.message.hasPrefix("Cannot read /any/posts.json: ") == true, "\(error?.message ?? "")")
        #expect(error?.cause is CocoaError)
    }

    @Test("an empty path is an invalidArgument")
    func emptyPath() async {
        let error = await #expect(throws: PostStoreError.self) {
            try await FilePostDataService(path: "", fileSystem: FailingFileSystem()).collectPosts(PostFetchRequest())
        }
        #expect(error?.code == .invalidArgument)
        #expect(error?.message == "The input file's path is empty.")
    }

    @Test("a bad payload is invalidData naming the file and the bad record; its reading phase never finishes")
    func badPayload() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("posts.json")
        let payload = #"[{"userId": 1, "id": 1, "title": "t", "body": ""}, {"userId": 1, "id": 2, "body": ""}]"#
        try Data(payload.utf8).write(to: URL(fileURLWithPath: path))
        let log = ProgressLog()
        let error = await #expect(throws: PostStoreError.self) {
            try await FilePostDataService(path: path).collectPosts(log.request())
        }
        #expect(error?.code == .invalidData)
        #expect(error?.message.contains(path) == true, "\(error?.message ?? "")")
        #expect(error?.message.contains(#"The post at index 1 (id 2): field "title" is missing."#) == true)
        #expect(error?.path == path, "the file involved, as sourceNotFound and ioFailure name it")
        #expect(log.events == [.working(WorkProgress(phase: .reading, completed: 0, bytes: 0, totalBytes: 86))])
    }

    @Test("a bad payload on standard input names standard input and the bad line")
    func badStandardInput() async {
        let payload = Data((#"{"userId": 1, "id": 1, "title": "t", "body": ""}"# + "\n\n{").utf8)
        let service = FilePostDataService(path: "-", fileSystem: FailingFileSystem(standardInput: payload))
        let error = await #expect(throws: PostStoreError.self) { try await service.collectPosts(PostFetchRequest()) }
        #expect(error?.code == .invalidData)
        #expect(error?.message.contains("standard input") == true, "\(error?.message ?? "")")
        #expect(error?.message.contains("Line 3 is not valid JSON") == true, "\(error?.message ?? "")")
    }
}
