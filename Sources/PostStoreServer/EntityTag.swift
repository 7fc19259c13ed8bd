import HTTPTypes
import PostStore

/// The `ETag` of a `GET` answer, and the `If-None-Match` and `If-Match` rules.
///
/// A list's tag (and a changes answer's) is strong: the store's revision (``PostPageReading/revision()``), which
/// changes with every write that changes a post, then a hash of what the request selects (its origin, path and
/// query) and `-gzip` for a compressed body (RFC 9110 wants a tag per representation). The revision alone decides a
/// `304`, so it is answered without reading a post. A store that keeps no revision gets a hash of the body instead.
/// One post's tag is its own (``tag(of:)``), so that a write's `If-Match` is refused only when that post changed.
enum EntityTag {
    /// The tag of an answer.
    ///
    /// - Parameters:
    ///   - version: The store's revision, or a hash of the body when the store keeps none.
    ///   - request: The request answered.
    static func tag(version: String, request: APIRequest) -> String {
        "\"\(version)-\(selection(of: request))\""
    }

    /// The tag of a compressed body whose identity tag is `tag`.
    static func compressed(_ tag: String) -> String {
        String(tag.dropLast()) + "-gzip\""
    }

    /// The tag of one post (`/posts/:id`): a hash of its JSON, the same wherever it is read, that changes with any
    /// byte of the post and with nothing else, so that `If-Match` on a write names the version the client read.
    static func tag(of post: Post) -> String {
        tag(ofPostJSON: PostAPI.json(post))
    }

    /// The tag of one post from its JSON (``PostAPI``'s), for an answer that has encoded it already.
    static func tag(ofPostJSON json: [UInt8]) -> String {
        var hasher = StableHasher()
        hasher.combine(bytes: json)
        return "\"p\(hasher.hexadecimal)\""
    }

    /// Whether the request's `If-Match` names `tag` (or its compressed form), or is `*` when `exists`: strong
    /// comparison, as RFC 9110 says for this header (a `W/` tag never matches). `nil` without the header.
    static func ifMatch(in request: APIRequest, tag: String?) -> Bool? {
        let candidates = request.headers[values: .ifMatch].flatMap { $0.split(separator: ",") }
        guard !candidates.isEmpty else { return nil }
        return candidates.contains { candidate in
            let candidate = candidate.trimmingWhitespace()
            guard let tag else { return false }
            return candidate == "*" || candidate == tag || candidate == compressed(tag)
        }
    }

    /// A hash of the body, as the version of a store that keeps no revision.
    static func version(ofBody body: [UInt8]) -> String {
        var hasher = StableHasher()
        hasher.combine(bytes: body)
        return "b" + hasher.hexadecimal
    }

    /// Whether the request's `If-None-Match` names `tag` (or its compressed form), or, when `orAnything`, is `*`:
    /// weak comparison, as RFC 9110 says for this header (a `W/` prefix is ignored).
    static func isMatched(by request: APIRequest, tag: String, orAnything: Bool = true) -> Bool {
        match(in: request, tag: tag, orAnything: orAnything) != nil
    }

    /// The tag of the request's `If-None-Match` that names `tag` — `tag` itself or its compressed form, which a
    /// `304` sends back as the client's representation's tag — or `tag` for a matching `*`; `nil` when none does.
    static func match(in request: APIRequest, tag: String, orAnything: Bool = true) -> String? {
        let candidates = request.headers[values: .ifNoneMatch].flatMap { $0.split(separator: ",") }
        let gzipTag = compressed(tag)
        for candidate in candidates {
            var candidate = candidate.trimmingWhitespace()
            if candidate == "*", orAnything { return tag }
            if candidate.hasPrefix("W/") { candidate = candidate.dropFirst(2) }
            if candidate == tag || candidate == gzipTag { return String(candidate) }
        }
        return nil
    }

    private static func selection(of request: APIRequest) -> String {
        var hasher = StableHasher()
        hasher.combine(request.origin)
        hasher.combine(request.target)
        return hasher.hexadecimal
    }
}

extension Substring {
    /// Without leading and trailing spaces and tabs.
    func trimmingWhitespace() -> Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return self[first...last]
    }
}
