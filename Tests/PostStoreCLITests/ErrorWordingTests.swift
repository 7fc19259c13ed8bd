import Foundation
import PostStore
import PostStoreTesting
import Testing

/// Paths and positions read one way in every message: a path as the user typed it (never made absolute, never a
/// link's target), a place in bytes as "byte offset N" counted from 0, whichever module found the fault.
@Suite struct ErrorWordingTests {
    /// `{"format": "poststore-json", "formatVersion": 1, "posts": [{"id": 1,,]}`: the second comma is byte 68.
    static let damagedStore = Data(#"{"format": "poststore-json", "formatVersion": 1, "posts": [{"id": 1,,]}"#.utf8)

    /// A damaged JSON store, named directly or through a link: the path typed, and the byte offset of the fault
    /// (Foundation's own wording, "around character 68", is not passed on).
    @Test(arguments: ["bad.json", "link.json"])
    func aDamagedJSONStoreIsNamedAsTypedAtItsByteOffset(name: String) async throws {
        let sandbox = try Sandbox()
        try sandbox.write(Self.damagedStore, to: "bad.json")
        try FileManager.default.createSymbolicLink(atPath: sandbox.path("link.json"), withDestinationPath: "bad.json")

        let result = try await sandbox.run(["query", "--store", "json:\(name)"])

        #expect(result.exitCode == 74, "\(result)")
        #expect(
            result.errorLines == [
                "poststore: The JSON store \(name) is damaged or not a PostStore file. The data is not valid JSON: "
                    + "expected a field name in quotes, found ',' (byte offset 68, in the post at index 0). It was left "
                    + "untouched."
            ],
            "\(result)"
        )
    }

    /// A byte that starts no UTF-8 character, in a source and in a store: the same sentence.
    @Test func invalidUTF8IsAtAByteOffsetInASourceAndInAStore() async throws {
        let sandbox = try Sandbox()
        let post = Data(#"{"userId": 1, "id": 1, "title": "a"#.utf8) + [0xFF] + Data(#"", "body": "b"}"#.utf8)
        try sandbox.write(Data("[".utf8) + post + Data("]".utf8), to: "source.json")
        try sandbox.write(
            Data(#"{"format": "poststore-json", "formatVersion": 1, "posts": ["#.utf8) + post + Data("]}".utf8),
            to: "store.json"
        )

        let sync = try await sandbox.run(["sync", "--from", "source.json", "--store", "posts.sqlite"])
        let query = try await sandbox.run(["query", "--store", "json:store.json"])

        #expect(sync.exitCode == 65, "\(sync)")
        #expect(
            sync.errorLines == [
                "poststore: Cannot use the posts in source.json: The data is not valid UTF-8: the byte 0xFF at byte "
                    + "offset 35 starts no valid character."
            ],
            "\(sync)"
        )
        #expect(query.exitCode == 74, "\(query)")
        #expect(
            query.errorOutput.contains("The data is not valid UTF-8: the byte 0xFF at byte offset 93 starts no "),
            "\(query)"
        )
    }

    /// A syntax error in a source: the same "byte offset" as in a store.
    @Test func aSyntaxErrorInASourceIsAtAByteOffset() async throws {
        let sandbox = try Sandbox()
        try sandbox.write(Data(#"[{"id": 1,,]"#.utf8), to: "source.json")

        let result = try await sandbox.run(["sync", "--from", "source.json", "--store", "posts.sqlite"])

        #expect(result.exitCode == 65, "\(result)")
        #expect(result.errorOutput.contains("(byte offset 10, in the post at index 0)"), "\(result)")
    }
}
