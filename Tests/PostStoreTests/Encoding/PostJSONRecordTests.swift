import Foundation
import PostStore
import PropertyBased
import Testing

@Suite("Decoding and encoding posts")
struct PostJSONRecordTests {
    @Test("the JSONPlaceholder shape decodes, extra keys are ignored")
    func decodesTheJSONPlaceholderShape() throws {
        let json = #"[{"userId": 1, "id": 1, "title": "t", "body": "b\nc", "extra": [1, 2]}]"#
        #expect(
            try PostJSON.decode(Data(json.utf8)) == [Post(userId: 1, id: 1, title: "t", body: "b\nc")]
        )
    }

    static let badPayloads: [(json: String, message: String)] = [
        ("", "The data is empty"),
        (" \n", "The data is empty"),
        ("[{", "The data is not valid JSON"),
        (#""posts""#, "The data must be an array, found a string."),
        (#"{"userId": 1}"#, #"The post on line 1: field "id" is missing."#),
        (#"[1]"#, "The post at index 0 must be an object, found a number."),
        (#"[{"userId": 1, "id": 1, "title": "t"}]"#, #"The post at index 0 (id 1): field "body" is missing."#),
        (
            #"[{"userId": 1, "id": 1, "title": "t", "body": ""}, {"userId": "2", "id": 2, "title": "t", "body": ""}]"#,
            #"The post at index 1 (id 2): field "userId" must be an integer, found a string."#
        ),
        (
            #"[{"userId": 1, "id": "x", "title": "t", "body": ""}]"#,
            #"The post at index 0: field "id" must be an integer"#
        ),
        (
            #"[{"userId": 1, "id": 3, "title": null, "body": ""}]"#,
            #"The post at index 0 (id 3): field "title" must be a string, found null."#
        ),
        (#"[{"userId": 1, "id": 4, "title": "t", "body": true}]"#, #"field "body" must be a string, found a boolean."#),
        (
            #"[{"userId": 1.5, "id": 5, "title": "t", "body": ""}]"#,
            #"The post at index 0 (id 5): field "userId" must be an integer, found 1.5."#
        ),
        (
            #"[{"userId": 1, "id": 9223372036854775808, "title": "t", "body": ""}]"#,
            #"The post at index 0: field "id" must be an integer that fits in 64 bits, found 9223372036854775808."#
        ),
    ]

    @Test("every malformed payload names the record and the field", arguments: badPayloads.indices)
    func malformedPayloads(index: Int) {
        let (json, message) = Self.badPayloads[index]
        let error = #expect(throws: PostStoreError.self) { try PostJSON.decode(Data(json.utf8)) }
        #expect(error?.code == .invalidData)
        #expect(error?.message.contains(message) == true, "\(error?.message ?? "")")
    }

    /// Any text: control characters, ASCII, and any scalar up to U+10FFFF (surrogate code points are not scalars).
    static let anyText = zip(Gen.int(in: 0...0x7F), Gen.int(in: 0...0x10FFFF), Gen.bool).map { ascii, any, pick in
        Unicode.Scalar(UInt32(pick ? ascii : any)) ?? "\u{FFFD}"
    }.array(of: 0...40).map { String(String.UnicodeScalarView($0)) }

    @Test("the JSON writer's output decodes back to the same post, for any text")
    func writerRoundTrips() async {
        await propertyCheck(count: 300, input: Self.anyText, Self.anyText, Gen.int()) { title, body, id in
            let post = Post(userId: id / 2, id: id, title: title, body: body)
            for indent in [nil, "  "] {
                var writer = JSONWriter()
                writer.raw("[")
                writer.post(post, indent: indent)
                writer.raw("]")
                // propertyCheck ignores what its body throws: a failure must be recorded to count.
                do {
                    #expect(try PostJSON.decode(Data(writer.bytes)) == [post])
                } catch {
                    Issue.record(error)
                }
            }
        }
    }
}
