import Foundation
import PostStore
import PostStoreTestSupport
import PostStoreTesting
import Testing

@Suite("Checking and decoding a payload")
struct PostJSONTests {
    /// One post as one line of JSON.
    private static func record(id: Int, userId: Int = 1, title: String = "t") -> String {
        #"{"userId": \#(userId), "id": \#(id), "title": "\#(title)", "body": "b"}"#
    }

    /// Decodes `payload`, expecting an `invalidData` error whose message holds every fragment.
    private static func expectInvalid(
        _ payload: Data,
        mentioning fragments: [String],
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let error = #expect(throws: PostStoreError.self, sourceLocation: sourceLocation) {
            try PostJSON.decode(payload)
        }
        #expect(error?.code == .invalidData, sourceLocation: sourceLocation)
        for fragment in fragments {
            #expect(
                error?.message.contains(fragment) == true,
                "\(error?.message ?? "no error") should mention \(fragment)",
                sourceLocation: sourceLocation
            )
        }
    }

    private static func expectInvalid(
        _ payload: String,
        mentioning fragments: [String],
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        expectInvalid(Data(payload.utf8), mentioning: fragments, sourceLocation: sourceLocation)
    }

    // MARK: Formats

    @Test("a JSON array decodes to its posts, in order")
    func decodesAnArray() throws {
        #expect(try PostJSON.decode(SamplePosts.json(SamplePosts.tricky)) == SamplePosts.tricky)
    }

    static let lineLayouts: [(name: String, prefix: String, separator: String, suffix: String)] = [
        ("plain", "", "\n", ""),
        ("trailing newline", "", "\n", "\n"),
        ("CRLF", "", "\r\n", "\r\n"),
        ("blank lines", "\n\n", "\n\n   \n", "\n\t\n"),
        ("blank CRLF lines", "\r\n", "\r\n\r\n", "\r\n\r\n"),
    ]

    @Test("newline-delimited JSON decodes to the same posts as the array", arguments: lineLayouts)
    func decodesLines(layout: (name: String, prefix: String, separator: String, suffix: String)) throws {
        let lines = String(decoding: SamplePosts.jsonLines(SamplePosts.tricky), as: UTF8.self).split(separator: "\n")
        #expect(lines.count == SamplePosts.tricky.count)
        let payload = layout.prefix + lines.joined(separator: layout.separator) + layout.suffix
        #expect(try PostJSON.decode(Data(payload.utf8)) == SamplePosts.tricky)
    }

    @Test("a UTF-8 byte-order mark is ignored in both formats")
    func ignoresByteOrderMark() throws {
        let bom = Data([0xEF, 0xBB, 0xBF])
        #expect(try PostJSON.decode(bom + SamplePosts.json(SamplePosts.tricky)) == SamplePosts.tricky)
        #expect(try PostJSON.decode(bom + SamplePosts.jsonLines(SamplePosts.tricky)) == SamplePosts.tricky)
    }

    // MARK: Encoding

    @Test("posts encode as a JSON array, and a post as one object, in JSONPlaceholder's key order")
    func encodesJSONPlaceholdersShape() {
        let posts = [
            Post(userId: 1, id: 1, title: "Hello", body: "World"),
            Post(userId: 2, id: 3, title: "\"quoted\"", body: "two\nlines"),
        ]
        let first = #"{"userId": 1, "id": 1, "title": "Hello", "body": "World"}"#
        let second = #"{"userId": 2, "id": 3, "title": "\"quoted\"", "body": "two\nlines"}"#
        #expect(String(decoding: PostJSON.encode(posts), as: UTF8.self) == "[\(first),\(second)]")
        #expect(String(decoding: PostJSON.encode(posts[1]), as: UTF8.self) == second)
        #expect(String(decoding: PostJSON.encode([Post]()), as: UTF8.self) == "[]")
    }

    @Test("what encode writes, as an array or one post per line, decodes back to the same posts")
    func encodedPostsDecodeBack() throws {
        let posts = SamplePosts.tricky
        #expect(try PostJSON.decode(PostJSON.encode(posts)) == posts)
        let lines = posts.map { PostJSON.encode($0) + Data("\n".utf8) }.reduce(Data(), +)
        #expect(try PostJSON.decode(lines) == posts)
    }

    /// Large enough to take the decoder's bulk paths; 100,000 posts are timed by the benchmark harness instead.
    /// The work runs off the concurrency pool's threads, which the timing tests of other suites need.
    @Test("20,000 posts decode in both formats")
    func decodesLargePayloads() async throws {
        let (posts, fromArray, fromLines) = try await onOwnThread {
            let posts = SamplePosts.make(count: 20_000)
            return (
                posts,
                try PostJSON.decode(SamplePosts.json(posts)),
                try PostJSON.decode(SamplePosts.jsonLines(posts))
            )
        }
        #expect(fromArray == posts)
        #expect(fromLines == posts)
    }

    @Test("a bad last line of a large newline-delimited payload is found and named")
    func findsTheBadLineOfALargePayload() {
        var payload = SamplePosts.jsonLines(SamplePosts.make(count: 10_000))
        payload.append(Data("\n{\"userId\": 1, \"id\": 10001, \"title\": \"t\"}\n".utf8))
        Self.expectInvalid(payload, mentioning: [#"The post on line 10001 (id 10001): field "body" is missing."#])
    }

    /// Lines whose brackets or strings reach into the next record when the lines are decoded together: each must
    /// be refused as a bad line, never read as other posts (and never crash).
    @Test(
        "lines that close or open another line's record are refused",
        arguments: [
            #"{"userId": 1, "id": 1, "title": "t", "body": "b"}],[{"userId": 1, "id": 1, "title": "t", "body": "b"}"#,
            #"{"userId": 1, "id": 1, "title": "t", "body": "b"}],[{"userId": 1, "id": 2, "title": "t", "body": "b"}"#,
            #"{"userId": 1, "id": 1, "title": "t", "body": "b", "x": ""# + "\n" + #""}"#,
            #"{"userId": 1, "id": 1, "title": "t", "body": "],["# + "\n" + #""}"# + "\n"
                + #"{"userId": 1, "id": 2, "title": "t", "body": "b"}],[{"userId": 1, "id": 3, "title": "t", "body": "b"}"#,
        ]
    )
    func refusesLinesThatReachIntoOthers(payload: String) {
        Self.expectInvalid(payload, mentioning: ["Line 1"])
    }

    // MARK: Bytes and top level

    static let invalidUTF8: [(name: String, bytes: [UInt8], message: String)] = [
        ("lone 0xFF", Array("[".utf8) + [0xFF] + Array("]".utf8), "the byte 0xFF at byte offset 1"),
        (
            "0xFF after valid multibyte text",
            Array(#"[{"title": "é😀"#.utf8) + [0xFF],
            "the byte 0xFF at byte offset 18"
        ),
        ("truncated at the end", Array("[".utf8) + [0xE2, 0x82], "the byte 0xE2 at byte offset 1"),
        (
            "truncated before a quote", Array(#"["caf"#.utf8) + [0xC3] + Array(#""]"#.utf8),
            "the byte 0xC3 at byte offset 5"
        ),
        ("overlong encoding", Array(#"[""#.utf8) + [0xC0, 0x80], "the byte 0xC0 at byte offset 2"),
        ("encoded surrogate", Array("[".utf8) + [0xED, 0xA0, 0x80], "the byte 0xED at byte offset 1"),
    ]

    @Test("invalid UTF-8 is refused, naming the offset and value of the bad byte", arguments: invalidUTF8)
    func refusesInvalidUTF8(invalid: (name: String, bytes: [UInt8], message: String)) {
        Self.expectInvalid(Data(invalid.bytes), mentioning: ["The data is not valid UTF-8", invalid.message])
    }

    /// The offset should count the bytes the caller handed in; today it counts from after the byte-order mark.
    @Test("the offset of a bad byte counts the byte-order mark")
    func invalidUTF8OffsetCountsTheByteOrderMark() {
        let payload = Data([0xEF, 0xBB, 0xBF] + Array("[".utf8) + [0xFF])
        Self.expectInvalid(payload, mentioning: ["the byte 0xFF at byte offset 4"])
    }

    static let badTopLevels: [(payload: String, message: String)] = [
        ("", "The data is empty, not a JSON array of posts."),
        (" \r\n\t", "The data is empty, not a JSON array of posts."),
        ("\u{FEFF}", "The data is empty, not a JSON array of posts."),
        ("hello", "The data is not valid JSON"),
        ("[{", "The data is not valid JSON"),
        ("42", "The data must be an array, found a number."),
        (#""posts""#, "The data must be an array, found a string."),
        ("true", "The data must be an array, found a boolean."),
    ]

    @Test(
        "empty input, text that is not JSON, and a top level that is not an array are refused",
        arguments: badTopLevels
    )
    func refusesBadTopLevels(bad: (payload: String, message: String)) {
        Self.expectInvalid(bad.payload, mentioning: [bad.message])
    }

    @Test("a single object wrapping the posts, or one post over several lines, is refused as an object")
    func refusesAWrappedArray() {
        let payload = #"{"posts": [\#(Self.record(id: 1))]}"#
        Self.expectInvalid(payload, mentioning: [#"one JSON object (with keys "posts"), not a JSON array of posts"#])
        let spread = "{\n  \"userId\": 1,\n  \"id\": 1,\n  \"title\": \"t\",\n  \"body\": \"b\"\n}"
        Self.expectInvalid(spread, mentioning: [#"with keys "body", "id", "title", "userId""#])
        Self.expectInvalid("{}", mentioning: ["an empty JSON object"])
    }

    // MARK: Records

    static let badArrayRecords: [(payload: String, message: String)] = [
        (
            "[\(record(id: 1)), " + #"{"userId": 1, "id": 2, "title": "t"}]"#,
            #"The post at index 1 (id 2): field "body" is missing."#
        ),
        (
            #"[{"userId": 1, "id": 7, "title": 5, "body": ""}]"#,
            #"The post at index 0 (id 7): field "title" must be a string, found a number."#
        ),
        (
            "[\(record(id: 1)), \(record(id: 2)), " + #"{"userId": null, "id": 3, "title": "t", "body": ""}]"#,
            #"The post at index 2 (id 3): field "userId" must be an integer, found null."#
        ),
        ("[\(record(id: 1)), [1]]", "The post at index 1 must be an object, found an array."),
    ]

    @Test("a bad record in an array is named by index, id and field", arguments: badArrayRecords)
    func refusesBadArrayRecords(bad: (payload: String, message: String)) {
        Self.expectInvalid(bad.payload, mentioning: [bad.message])
    }

    static let badLines: [(payload: String, message: String)] = [
        (
            "\(record(id: 1))\n\n" + #"{"userId": 1, "id": 3, "title": "t"}"#,
            #"The post on line 3 (id 3): field "body" is missing."#
        ),
        (
            "\(record(id: 1))\r\n\r\n\r\n" + #"{"userId": 1, "id": 4, "title": false, "body": ""}"# + "\r\n",
            #"The post on line 4 (id 4): field "title" must be a string, found a boolean."#
        ),
        (
            "\n\(record(id: 1))\n" + #"{"userId": 1.5, "id": 5, "title": "t", "body": ""}"#,
            #"The post on line 3 (id 5): field "userId" must be an integer"#
        ),
        ("\(record(id: 1))\n\n{\"userId\": 1, \"id\": 2,", "Line 3 is not valid JSON"),
        ("\(record(id: 1))\n[\(record(id: 2))]", "The post on line 2 must be an object, found an array."),
        // One line that is a post with a problem is named as a post, not as "one JSON object".
        (#"{"userId": 1, "id": 3, "title": "t"}"#, #"The post on line 1 (id 3): field "body" is missing."#),
        (#"{"userId": 1, "id": 3, "id": 4, "title": "t", "body": ""}"#, #"field "id" appears twice"#),
    ]

    @Test(
        "a bad line of newline-delimited JSON is named by line number (blank lines count) and id",
        arguments: badLines
    )
    func refusesBadLines(bad: (payload: String, message: String)) {
        Self.expectInvalid(bad.payload, mentioning: [bad.message])
    }

    @Test("two posts on one line are refused")
    func refusesTwoPostsOnOneLine() {
        Self.expectInvalid(
            "\(Self.record(id: 1))\n\(Self.record(id: 2)), \(Self.record(id: 3))\n\(Self.record(id: 4))",
            mentioning: ["Line 2 is not valid JSON: expected the end of the line after the post"]
        )
        Self.expectInvalid("\(Self.record(id: 1)) \(Self.record(id: 2))", mentioning: ["Line 1 is not valid JSON"])
    }

    /// Joined with commas, the two lines form two valid posts, but neither line holds exactly one.
    @Test("a post split across two lines is refused")
    func refusesAPostSplitAcrossLines() {
        let payload = "\(Self.record(id: 1)), " + #"{"userId": 1, "id": 2, "title": "t""# + "\n" + #""body": "b"}"#
        Self.expectInvalid(payload, mentioning: ["Line 1"])
    }

    // MARK: Duplicates

    @Test("a repeated id in an array names both indices and the id")
    func refusesDuplicateIdsInAnArray() {
        let payload = "[\(Self.record(id: 5)), \(Self.record(id: 6)), \(Self.record(id: 5, title: "again"))]"
        Self.expectInvalid(
            payload,
            mentioning: ["The post at index 2 repeats id 5 of the post at index 0; ids must be unique."]
        )
    }

    @Test("a repeated id in newline-delimited JSON names both line numbers and the id")
    func refusesDuplicateIdsInLines() {
        let payload = "\(Self.record(id: 5))\n\n\(Self.record(id: 6))\r\n\(Self.record(id: 5, title: "again"))\n"
        Self.expectInvalid(
            payload,
            mentioning: ["The post on line 4 repeats id 5 of the post on line 1; ids must be unique."]
        )
    }
}
