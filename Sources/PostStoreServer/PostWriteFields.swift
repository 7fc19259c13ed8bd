import Foundation
import PostStore

/// The fields a write's JSON body gives: any of `userId`, `id`, `title` and `body`, each of its type; `POST` and
/// `PUT` need all but `id`, `PATCH` any. Any other key, a `null`, a wrong type or bad JSON is a 400 naming it.
struct PostWriteFields: Sendable, Equatable {
    var userId: Int?
    var id: Int?
    var title: String?
    var body: String?

    /// Decodes a body.
    ///
    /// - Parameter bytes: The request's body.
    /// - Throws: ``APIError`` (400).
    init(json bytes: [UInt8]) throws(APIError) {
        guard !bytes.isEmpty else {
            throw .badRequest("The request has no body; send a JSON object with userId, title and body.")
        }
        do {
            self = try JSONDecoder().decode(Decoded.self, from: Data(bytes)).fields
        } catch let error as APIError {
            throw error
        } catch let DecodingError.typeMismatch(type, context), let DecodingError.valueNotFound(type, context) {
            if let field = context.codingPath.first?.stringValue {
                let expected = type == Int.self ? "a whole number" : "a string"
                throw .badRequest("The field \"\(field)\" must be \(expected).")
            }
            throw .badRequest("The body must be a JSON object (a post's fields).")
        } catch {
            // Foundation says "not valid JSON" also for a number that is not a whole one or does not fit in 64 bits
            // (`5.5`, `1e30`): name the field when the JSON itself is valid.
            if let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any],
                let field = ["userId", "id"].first(where: { key in
                    (object[key] as? NSNumber).map { Int(exactly: $0.doubleValue) == nil } ?? false
                })
            {
                throw .badRequest("The field \"\(field)\" must be a whole number that fits in 64 bits.")
            }
            throw .badRequest("The body is not valid JSON.")
        }
    }

    /// The post a `POST` or `PUT` writes.
    ///
    /// - Parameter id: The id to give it: the path's, or the one the server chose.
    /// - Throws: ``APIError`` (400) for a missing field, or an `id` that differs from `id`.
    func post(id: Int) throws(APIError) -> Post {
        try checkId(id)
        guard let userId, let title, let body else {
            let missing = [("userId", userId == nil), ("title", title == nil), ("body", body == nil)]
                .filter(\.1).map { "\"\($0.0)\"" }
            throw .badRequest("The post lacks \(missing.joined(separator: ", ")); userId, title and body are required.")
        }
        return Post(userId: userId, id: id, title: title, body: body)
    }

    /// `post` with these fields changed: a `PATCH`.
    func patching(_ post: Post) throws(APIError) -> Post {
        try checkId(post.id)
        return Post(userId: userId ?? post.userId, id: post.id, title: title ?? post.title, body: body ?? post.body)
    }

    private func checkId(_ expected: Int) throws(APIError) {
        if let id, id != expected {
            throw .badRequest("The body's id \(id) differs from the post's id \(expected); an id cannot change.")
        }
    }

    /// The decoding of a body: an object whose keys are all known.
    private struct Decoded: Decodable {
        let fields: PostWriteFields

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: AnyKey.self)
            for key in container.allKeys where !["userId", "id", "title", "body"].contains(key.stringValue) {
                throw APIError.badRequest(
                    "The field \"\(key.stringValue)\" is not a post's; a post has userId, id, title and body."
                )
            }
            func field<Value: Decodable>(_ name: String, _ type: Value.Type) throws -> Value? {
                let key = AnyKey(stringValue: name)
                return container.contains(key) ? try container.decode(type, forKey: key) : nil
            }
            fields = PostWriteFields(
                userId: try field("userId", Int.self),
                id: try field("id", Int.self),
                title: try field("title", String.self),
                body: try field("body", String.self)
            )
        }
    }

    private init(userId: Int?, id: Int?, title: String?, body: String?) {
        self.userId = userId
        self.id = id
        self.title = title
        self.body = body
    }

    private struct AnyKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
