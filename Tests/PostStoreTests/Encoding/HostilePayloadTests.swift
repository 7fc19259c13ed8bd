import Foundation
import Testing

@_spi(FileSystem) @testable import PostStore

/// Payloads built to exhaust memory or the stack: posts longer than the limit, endless values, deep nesting. Each
/// is refused with one line of ``PostStoreError/Code/invalidData``, and a stream stops reading soon after the
/// limit instead of holding the value whole.
@Suite struct HostilePayloadTests {
    private static let post = #"{"userId": 1, "id": 7, "title": "a title", "body": "a body"}"#

    @Test func whitespaceBetweenPostsDoesNotCountAgainstThePostLimit() throws {
        let spaces = String(repeating: " ", count: 64 << 10)
        for payload in [
            "[\(spaces)\(Self.post)\(spaces),\(spaces)\(Self.post.replacingOccurrences(of: "7", with: "8"))]",
            "\(Self.post)\n\(spaces)\(Self.post.replacingOccurrences(of: "7", with: "8"))\(spaces)\n",
        ] {
            let reader = PostPayloadReader(
                file: DataReadableFile(Data(payload.utf8)),
                pieceSize: 4096,
                maximumPostBytes: 1024
            )

            var ids: [Int] = []
            while let batch = try reader.nextBatch() { ids += batch.map(\.id) }

            #expect(ids == [7, 8])
        }
    }

    @Test func whitespaceBeforeThePayloadIsDroppedAsItIsRead() throws {
        let blanks = Array(String(repeating: " \r\n\t", count: 16 << 10).utf8)
        var parser = PostPayloadParser(maximumPostBytes: 1024)
        var posts: [Post] = []

        let stopped = try blanks.withUnsafeBufferPointer { window in
            try parser.parse(window, from: 0, windowOffset: 0, isComplete: false, into: &posts)
        }

        #expect(stopped == blanks.count, "a stream would hold \(blanks.count - stopped) bytes of whitespace")
        #expect(posts.isEmpty)
    }

    @Test func blankLinesBeforeThePayloadCountForLineNumbersWhenStreamed() throws {
        let blankLines = String(repeating: " \n", count: 20_000)
        let payload = "\(blankLines)\(Self.post)\n{\"id\": \"eight\"}\n"
        let reader = PostPayloadReader(
            file: DataReadableFile(Data(payload.utf8)),
            pieceSize: 4096,
            maximumPostBytes: 1024
        )

        let error = try #require(throws: PostStoreError.self) { while try reader.nextBatch() != nil {} }

        #expect(error.message.hasPrefix("The post on line 20002:"), "\(error.message)")
    }

    @Test(arguments: [(0, true), (1, false)])
    func aPostIsRefusedOnlyPastTheLimit(overBy extra: Int, accepted: Bool) throws {
        let limit = Self.post.utf8.count - extra
        for payload in ["[\(Self.post)]", "\(Self.post)\n"] {
            do {
                let posts = try PostJSON.decode(Data(payload.utf8), maximumPostBytes: limit)
                #expect(accepted && posts.map(\.id) == [7], "\(payload)")
            } catch {
                #expect(!accepted, "\(error)")
                #expect(error.code == .invalidData)
                #expect(error.message.contains("(id 7) is \(Self.post.utf8.count) bytes of JSON"), "\(error.message)")
                #expect(error.message.contains("limit of \(limit) bytes per post"), "\(error.message)")
            }
        }
    }

    @Test func theDefaultLimitRefusesAHugeFieldAndARaisedOneReadsIt() throws {
        let huge = String(repeating: "x", count: PayloadLimits.defaultMaximumPostBytes)
        let payload = Data(#"[{"userId": 1, "id": 1, "title": "\#(huge)", "body": ""}]"#.utf8)

        let error = try #require(throws: PostStoreError.self) { try PostJSON.decode(payload) }
        let posts = try PostJSON.decode(payload, maximumPostBytes: 2 << 20)

        #expect(
            error.message
                == "The post at index 0 (id 1) is \(payload.count - 2) bytes of JSON, larger than the limit of 1 MiB per post."
        )
        #expect(posts.first?.title.utf8.count == huge.utf8.count)
    }

    @Test(arguments: [
        #"[{"userId": 1, "id": 1, "title": ""#,  // a string that never ends
        #"[{"userId": 1, "id": 1, "extra": ["#,  // an array that never ends
        "{\"userId\": 1, \"extra\": \"",  // newline-delimited JSON, a string that never ends
        "\"",  // a payload that is one string that never ends
    ])
    func anEndlessValueStopsTheStreamSoonAfterTheLimit(prefix: String) throws {
        let file = EndlessFile(prefix: Data(prefix.utf8), filler: prefix.hasSuffix("[") ? UInt8(ascii: "1") : 0x61)
        let reader = PostPayloadReader(file: file, pieceSize: 64 << 10, maximumPostBytes: 1 << 20)

        let error = try #require(throws: PostStoreError.self) { try reader.nextBatch() }

        #expect(error.code == .invalidData)
        #expect(error.message.contains("is larger than the limit of 1 MiB per post"), "\(error.message)")
        #expect(file.bytesRead < 4 << 20, "read \(file.bytesRead) bytes before refusing")
    }

    @Test(arguments: [
        String(repeating: "[", count: 1_000_000),
        #"[{"userId": 1, "id": 1, "title": "t", "body": "b", "x": "# + String(repeating: "[", count: 100_000),
        #"[{"userId": 1, "id": 1, "title": "t", "body": "b", "x": "# + String(repeating: #"{"a":"#, count: 100_000),
        "{\"x\": " + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000) + "}\n",
    ])
    func deepNestingIsRefusedWithoutExhaustingTheStack(payload: String) throws {
        let data = Data(payload.utf8)

        let whole = try #require(throws: PostStoreError.self) {
            try PostJSON.decode(data, maximumPostBytes: .max)
        }
        let streamed = try #require(throws: PostStoreError.self) {
            let reader = PostPayloadReader(file: DataReadableFile(data), pieceSize: 4096, maximumPostBytes: .max)
            while try reader.nextBatch() != nil {}
        }

        #expect(whole.code == .invalidData)
        #expect(!whole.message.contains("\n"))
        #expect(streamed.message == whole.message)
    }
}

/// A file that starts with `prefix` and then repeats `filler` forever, counting what was read.
private final class EndlessFile: ReadableFile {
    private let prefix: Data
    private let filler: UInt8
    private(set) var bytesRead = 0

    init(prefix: Data, filler: UInt8) {
        self.prefix = prefix
        self.filler = filler
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        for index in buffer.indices {
            let offset = bytesRead + index
            buffer[index] = offset < prefix.count ? prefix[prefix.startIndex + offset] : filler
        }
        bytesRead += buffer.count
        return buffer.count
    }
}
