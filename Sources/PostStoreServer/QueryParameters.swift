/// The parameters of a request's query, decoded as forms and json-server decode them (`+` is a space, `%XX` a
/// byte, the bytes UTF-8), in their order, repeats kept.
struct QueryParameters: Sendable {
    /// Each parameter's name and value, in the query's order.
    private(set) var pairs: [(name: String, value: String)] = []

    /// Decodes a query.
    ///
    /// - Parameter query: The query as sent, without the `?`; `nil` or empty has no parameters.
    /// - Throws: ``APIError`` (400) for a bad `%` escape or bytes that are not UTF-8.
    init(_ query: String?) throws(APIError) {
        guard let query, !query.isEmpty else { return }
        for part in query.split(separator: "&", omittingEmptySubsequences: true) {
            let (name, value) =
                part.firstIndex(of: "=").map { (part[..<$0], part[part.index(after: $0)...]) } ?? (part, "")
            pairs.append((try Self.percentDecoded(name), try Self.percentDecoded(value)))
        }
    }

    /// Every value of `name`, in order.
    func values(_ name: String) -> [String] {
        pairs.filter { $0.name == name }.map(\.value)
    }

    /// The one value of `name`, or `nil` when it is absent.
    ///
    /// - Throws: ``APIError`` (400) when it is given twice: which one counts would be a guess.
    func value(_ name: String) throws(APIError) -> String? {
        let values = values(name)
        guard values.count <= 1 else {
            throw .badRequest("The parameter \(name) is given \(values.count) times; give it once.")
        }
        return values.first
    }

    /// The names given, each once, in the order they first appear.
    var names: [String] {
        var seen = Set<String>()
        return pairs.map(\.name).filter { seen.insert($0).inserted }
    }

    /// Text with its `%XX` escapes decoded, and `+` read as a space when `plusIsSpace` (a query's convention, not a
    /// path's).
    ///
    /// - Throws: ``APIError`` (400) for a bad escape or bytes that are not UTF-8.
    static func percentDecoded(_ text: Substring, plusIsSpace: Bool = true) throws(APIError) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "+") where plusIsSpace:
                bytes.append(UInt8(ascii: " "))
            case UInt8(ascii: "%"):
                guard let high = iterator.next()?.hexDigitValue, let low = iterator.next()?.hexDigitValue else {
                    throw .badRequest(
                        "A bad escape in \"\(text)\": % must be followed by two hex digits."
                    )
                }
                bytes.append(high << 4 | low)
            default:
                bytes.append(byte)
            }
        }
        guard let decoded = String(validating: bytes, as: UTF8.self) else {
            throw .badRequest("\"\(text)\" is not UTF-8 once decoded.")
        }
        return decoded
    }
}
