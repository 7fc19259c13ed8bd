#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// PostStore's text search, defined once and used by every engine.
///
/// The search text is split on whitespace into terms. A post matches when every term, each on its own, occurs as a
/// substring of the post's title or of its body. Both sides are lowercased with Swift's `lowercased()` first, and
/// substrings are compared by Unicode code points with no normalization (`"e"` is found in `"é"` only when the `é`
/// is written decomposed). A search with no terms matches every post.
///
/// For example, `TextSearch("Qui EST")` matches a post titled "qui est esse", and one titled "quis" whose body
/// contains "estne".
public struct TextSearch: Sendable, Hashable {
    /// The lowercased terms, in the order they were written.
    public let terms: [String]

    /// Splits and lowercases a search text.
    ///
    /// - Parameter text: The text a user typed; runs of whitespace separate terms.
    public init(_ text: String) {
        terms = text.split(whereSeparator: \.isWhitespace).map { $0.lowercased() }
    }

    /// Two searches are equal when their terms are equal byte for byte, as matching compares them.
    public static func == (lhs: TextSearch, rhs: TextSearch) -> Bool {
        lhs.terms.count == rhs.terms.count
            && zip(lhs.terms, rhs.terms).allSatisfy { $0.utf8.elementsEqual($1.utf8) }
    }

    /// Hashes the terms' bytes, consistently with ``==(_:_:)``.
    public func hash(into hasher: inout Hasher) {
        for term in terms { hasher.combine(Array(term.utf8)) }
    }

    /// Whether the search has no terms and so matches everything.
    public var isEmpty: Bool { terms.isEmpty }

    /// Whether the post matches every term.
    ///
    /// - Parameter post: The post to test.
    /// - Returns: `true` when each term occurs in the lowercased title or the lowercased body.
    public func matches(_ post: Post) -> Bool {
        matches(title: post.title, body: post.body)
    }

    /// Whether a title and a body match every term; ``matches(_:)`` for text that is not yet a ``Post``.
    ///
    /// - Parameters:
    ///   - title: The post's title, as stored.
    ///   - body: The post's body, as stored.
    /// - Returns: `true` when each term occurs in the lowercased title or the lowercased body.
    public func matches(title: String, body: String) -> Bool {
        if terms.isEmpty { return true }
        let lowercasedTitle = title.lowercased()
        let lowercasedBody = body.lowercased()
        return terms.allSatisfy { term in
            lowercasedTitle.containsCodePoints(of: term) || lowercasedBody.containsCodePoints(of: term)
        }
    }
}

extension String {
    /// Whether `needle` occurs in this string as a run of code points.
    ///
    /// UTF-8 is self-synchronizing, so a byte-substring of two valid UTF-8 strings is a code point substring.
    package func containsCodePoints(of needle: String) -> Bool {
        var haystack = self
        var needle = needle
        return haystack.withUTF8 { haystack in needle.withUTF8 { haystack.contains(bytes: $0) } }
    }
}

extension UnsafeBufferPointer<UInt8> {
    /// Whether `needle` occurs in these bytes.
    ///
    /// The C library's `memchr` and `memcmp` find it, many times faster than a generic search over slices (in debug
    /// builds above all, where a search of many terms took seconds).
    func contains(bytes needle: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = needle.first else { return true }
        guard needle.count <= count, let haystackStart = baseAddress, let needleStart = needle.baseAddress else {
            return false
        }
        let lastStart = haystackStart + (count - needle.count)
        var start = haystackStart
        while start <= lastStart {
            guard let hit = memchr(start, Int32(first), lastStart - start + 1) else { return false }
            let candidate = UnsafePointer(hit.assumingMemoryBound(to: UInt8.self))
            if memcmp(candidate, needleStart, needle.count) == 0 { return true }
            start = candidate + 1
        }
        return false
    }
}
