/// A ``TextSearch`` prepared to match text held as UTF-8 bytes, as a ``PostTable`` holds it: each term's bytes and
/// whether they are all ASCII, and the trigram filter bits of the search.
///
/// It decides exactly as ``TextSearch/matches(title:body:)`` does. A field that is all ASCII is matched in place:
/// `lowercased()` only turns its capital letters into small ones, so a term is found by comparing bytes with those
/// letters folded, and a term with any other byte cannot be in it. A field with any other character is lowercased
/// by Swift, as the definition says (`İ` becomes `i` and a combining dot, the Kelvin sign `k`), once for all the
/// terms.
struct ByteTextSearch {
    /// One lowercased term.
    struct Term {
        /// Its UTF-8 bytes, as ``TextSearch`` lowercased it.
        let bytes: [UInt8]
        /// Whether every byte is ASCII.
        let isASCII: Bool
    }

    /// One field of a post: its bytes as stored (not lowercased) and whether they are all ASCII.
    struct Field {
        /// The field's UTF-8 bytes.
        let bytes: UnsafeBufferPointer<UInt8>
        /// Whether every byte is ASCII.
        let isASCII: Bool
    }

    /// The terms, in the search's order.
    let terms: [Term]

    /// The trigram filter bits every matching post's block has (``TrigramBlockFilter/bits(of:)``).
    let filterBits: [Int]

    /// Prepares a search.
    init(_ search: TextSearch) {
        terms = search.terms.map { term in
            let bytes = Array(term.utf8)
            return Term(bytes: bytes, isASCII: bytes.allSatisfy { $0 < 0x80 })
        }
        filterBits = TrigramBlockFilter.bits(of: terms.map(\.bytes))
    }

    /// Whether the search has no terms and so matches everything.
    var isEmpty: Bool { terms.isEmpty }

    /// Whether a post's title and body match every term: ``TextSearch/matches(title:body:)`` over bytes.
    ///
    /// - Parameters:
    ///   - title: The title.
    ///   - body: The body.
    ///   - scratch: Room for a field that is not ASCII, lowercased; the caller keeps it from post to post, so that
    ///     it is allocated once.
    func matches(title: Field, body: Field, scratch: inout Scratch) -> Bool {
        scratch.titleIsLowercased = false
        scratch.bodyIsLowercased = false
        for term in terms {
            if title.isASCII ? Self.caselessASCII(title, contains: term) : scratch.lowercasedTitle(title).contains(term)
            {
                continue
            }
            if body.isASCII ? Self.caselessASCII(body, contains: term) : scratch.lowercasedBody(body).contains(term) {
                continue
            }
            return false
        }
        return true
    }

    /// Buffers for a post's fields lowercased, kept from post to post.
    struct Scratch {
        private var title: [UInt8] = []
        private var body: [UInt8] = []
        /// Whether `title` holds the current post's title lowercased.
        fileprivate var titleIsLowercased = false
        /// Whether `body` holds the current post's body lowercased.
        fileprivate var bodyIsLowercased = false

        /// Empty buffers.
        init() {}

        /// The title lowercased, lowercasing it the first time a term needs it.
        fileprivate mutating func lowercasedTitle(_ field: Field) -> [UInt8] {
            if !titleIsLowercased {
                UTF8Lowercasing.lowercase(field.bytes, into: &title)
                titleIsLowercased = true
            }
            return title
        }

        /// The body lowercased, lowercasing it the first time a term needs it.
        fileprivate mutating func lowercasedBody(_ field: Field) -> [UInt8] {
            if !bodyIsLowercased {
                UTF8Lowercasing.lowercase(field.bytes, into: &body)
                bodyIsLowercased = true
            }
            return body
        }
    }

    /// Whether an ASCII field, lowercased, contains the term: never when the term is not ASCII.
    private static func caselessASCII(_ field: Field, contains term: Term) -> Bool {
        term.isASCII && caselessASCII(field.bytes, contains: term.bytes)
    }

    /// Whether ASCII text, its capital letters taken as small ones, contains `needle`, which is lowercase ASCII.
    static func caselessASCII(_ haystack: UnsafeBufferPointer<UInt8>, contains needle: [UInt8]) -> Bool {
        guard let first = needle.first else { return true }
        guard needle.count <= haystack.count else { return false }
        // The first byte as either case: a small letter is also found as its capital.
        let otherFirst = first &- UInt8(ascii: "a") < 26 ? first ^ 0x20 : first
        return needle.withUnsafeBufferPointer { needle in
            let lastStart = haystack.count - needle.count
            var start = 0
            while start <= lastStart {
                let byte = haystack[start]
                if byte == first || byte == otherFirst {
                    var offset = 1
                    while offset < needle.count && haystack[start + offset].lowercasedASCII == needle[offset] {
                        offset += 1
                    }
                    if offset == needle.count { return true }
                }
                start += 1
            }
            return false
        }
    }
}

extension [UInt8] {
    /// Whether these lowercased bytes contain a term.
    fileprivate func contains(_ term: ByteTextSearch.Term) -> Bool {
        withUnsafeBufferPointer { text in term.bytes.withUnsafeBufferPointer { text.contains(bytes: $0) } }
    }
}
