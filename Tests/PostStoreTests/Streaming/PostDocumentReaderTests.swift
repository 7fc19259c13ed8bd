import Foundation
import Testing

@_spi(FileSystem) @testable import PostStore

@Suite("Post document reader")
struct PostDocumentReaderTests {
    /// The parts of a document, as text: `key=json`, `posts`, and each batch's ids.
    private func parts(_ document: String, pieceSize: Int = 1 << 20, batchSize: Int = 4096) throws -> [String] {
        let reader = PostDocumentReader(
            file: DataReadableFile(Data(document.utf8)),
            postsKey: "posts",
            pieceSize: pieceSize,
            batchSize: batchSize
        )
        var parts: [String] = []
        while let part = try reader.next() {
            switch part {
            case .value(let key, let json): parts.append("\(key)=\(String(decoding: json, as: UTF8.self))")
            case .postsFollow: parts.append("posts")
            case .posts(let posts): parts.append(posts.map { String($0.id) }.joined(separator: ","))
            }
        }
        return parts
    }

    static let document = """
        \u{FEFF} {"format": "x", "nested": {"a": [1, {"b": "\\"}"}], "c": null},
          "posts": [
            {"userId": 1, "id": 1, "title": "a", "body": "b"},
            {"userId": 1, "id": 2, "title": "\\u00e9", "body": "b", "extra": [1]},
            {"userId": 2, "id": 3, "title": "c", "body": "d"}
          ],
          "after": 12.5e3 }\n
        """

    @Test("values come whole and posts in batches, in the document's order, read in pieces of any size")
    func partsInOrder() throws {
        let expected = [
            "format=\"x\"", #"nested={"a": [1, {"b": "\"}"}], "c": null}"#, "posts", "1,2", "3", "after=12.5e3",
        ]
        for pieceSize in [1, 2, 7, 64, 1 << 20] {
            #expect(try parts(Self.document, pieceSize: pieceSize, batchSize: 2) == expected, "pieces of \(pieceSize)")
        }
        #expect(try parts(#"{"posts": []}"#) == ["posts"])
        let repeated = #"{"userId": 1, "id": 4, "title": "", "body": ""}"#
        #expect(try parts("{\"posts\": [\(repeated), \(repeated)]}") == ["posts", "4,4"], "repeats are the caller's")
        #expect(try parts("{}") == [])
        #expect(try parts(#"{"a": 1}"#) == ["a=1"])
    }

    @Test(
        "a document that is not one object with each key once, and posts that are not posts, are refused",
        arguments: [
            ("", "The document is empty."),
            ("  \n", "The document is empty."),
            ("[]", "The data must be an object, found an array."),
            ("{\"a\": 1,}", "The data is not valid JSON: expected a field name in quotes, found '}' (byte offset 8)."),
            ("{\"a\": 1} x", "The data is not valid JSON: expected nothing after the closing '}', found 'x'"),
            ("{\"a\": 1, \"a\": 2}", "The key \"a\" appears twice."),
            ("{\"posts\": {}}", "The data must be an array, found an object."),
            ("{\"posts\": [1]}", "The post at index 0 must be an object, found a number."),
            ("{\"posts\": [], \"b\": [1, 2}", "The data is not valid JSON: expected ',' or ']', found '}'"),
            ("{\"a\": \"\u{FFFD}\"}", "The data is not valid UTF-8: the byte 0xFF at byte offset 7"),
        ]
    )
    func refusals(document: String, message: String) throws {
        var bytes = Data(document.utf8)
        if document.contains("\u{FFFD}") { bytes = Data([0x7B, 0x22, 0x61, 0x22, 0x3A, 0x20, 0x22, 0xFF, 0x22, 0x7D]) }
        for pieceSize in [1, 1 << 20] {
            let reader = PostDocumentReader(file: DataReadableFile(bytes), postsKey: "posts", pieceSize: pieceSize)
            let error = #expect(throws: PostStoreError.self) { while try reader.next() != nil {} }
            #expect(error?.code == .invalidData)
            #expect(error?.message.hasPrefix(message) == true, "\(error?.message ?? "no error")")
        }
    }
}
