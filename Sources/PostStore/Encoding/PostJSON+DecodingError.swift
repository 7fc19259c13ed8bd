package import Foundation

/// `JSONDecoder`'s errors about posts, told the way ``PostJSON/decode(_:maximumPostBytes:)`` tells its own.
extension PostJSON {
    /// Turns a `DecodingError` from decoding posts into one line that names the record and the field.
    ///
    /// The record is the innermost array element on the error's coding path, so this works for a bare array of
    /// posts and for a document that nests one under a key.
    ///
    /// - Parameters:
    ///   - error: What `JSONDecoder` threw.
    ///   - data: The JSON it was decoding, to look up the bad record's id.
    ///   - position: How to name the position of the record at an array index, by default "at index 7".
    /// - Returns: A sentence for a person.
    package static func describe(
        _ error: DecodingError,
        in data: Data,
        position: (Int) -> String = { "at index \($0)" }
    ) -> String {
        let (path, problem): ([any CodingKey], String)
        switch error {
        case .keyNotFound(let key, let context):
            (path, problem) = (context.codingPath + [key], "is missing")
        case .typeMismatch(let type, let context):
            (path, problem) = (context.codingPath, "must be \(typeName(type)), found \(foundName(context))")
        case .valueNotFound(let type, let context):
            (path, problem) = (context.codingPath, "must be \(typeName(type)), found null")
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty {
                // Foundation on Linux reports a number that does not fit an Int (1.5, 1e30) without a path.
                if let located = locateNumberProblem(in: data, position: position) { return located }
                // Where the JSON breaks, as a byte offset like the payload parser's (Foundation counts "characters").
                return jsonSyntaxProblem(in: data) ?? "The data is not valid JSON."
            }
            (path, problem) = (context.codingPath, "is not valid: \(context.debugDescription)")
        @unknown default:
            return "The posts could not be decoded: \(error)."
        }
        guard let recordDepth = path.lastIndex(where: { $0.intValue != nil }) else {
            let subject = path.isEmpty ? "The data" : "The field \"\(dotted(path))\""
            return "\(subject) \(problem)."
        }
        let index = path[recordDepth].intValue!
        // A store document also holds sync states; anything else in an array is a post.
        let isSyncState = recordDepth > path.startIndex && path[recordDepth - 1].stringValue == "syncStates"
        let record = isSyncState ? "sync state" : "post"
        let id = isSyncState ? "" : recordId(at: path[...recordDepth], in: data).map { " (id \($0))" } ?? ""
        let field = path[(recordDepth + 1)...]
        if field.isEmpty {
            return "The \(record) \(position(index))\(id) \(problem)."
        }
        return "The \(record) \(position(index))\(id): field \"\(dotted(field))\" \(problem)."
    }

    /// Where the JSON breaks, found by ``PostJSONScanner`` and said as the payload parser says it: "The data is not
    /// valid JSON: expected a value, found ',' (byte offset 68)."; `nil` when the scanner finds no fault.
    private static func jsonSyntaxProblem(in data: Data) -> String? {
        data.withUnsafeBytes { raw -> String? in
            let bytes = raw.bindMemory(to: UInt8.self)
            var scanner = PostJSONScanner(bytes: bytes, isComplete: true, allowsLineFeeds: true, position: 0)
            do throws(PostJSONScanner.Failure) {
                try scanner.skipWhitespace()
                _ = try scanner.skipValue(depth: 0)
                try scanner.skipWhitespace()
                if try scanner.peek() != nil { throw scanner.unexpected("the end of the data") }
                return nil
            } catch {
                switch error {
                case .syntax(let problem, let offset):
                    return "The data is not valid JSON: \(problem) (byte offset \(offset))."
                case .invalidUTF8(let offset):
                    return
                        "The data is not valid UTF-8: the byte 0x\(String(bytes[offset], radix: 16, uppercase: true)) "
                        + "at byte offset \(offset) starts no valid character."
                case .needsMoreBytes, .notPosts:
                    return nil
                }
            }
        }
    }

    private static func dotted(_ path: some Collection<any CodingKey>) -> String {
        path.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
    }

    private static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is Int.Type, is Int64.Type: "an integer"
        case is String.Type: "a string"
        case is [Post].Type, is [Any].Type: "an array"
        case is Post.Type: "an object"
        default:
            String(describing: type).hasPrefix("Array") ? "an array" : "an object"
        }
    }

    /// What `JSONDecoder` says it found instead ("…but found a string instead."), as "a string", "an object", ….
    private static func foundName(_ context: DecodingError.Context) -> String {
        let text = context.debugDescription.lowercased()
        guard let found = text.range(of: "found ") else { return "a value of another type" }
        let rest = text[found.upperBound...]
        for (word, name) in [
            ("string", "a string"), ("number", "a number"), ("bool", "a boolean"), ("dictionary", "an object"),
            ("object", "an object"), ("array", "an array"), ("null", "null"),
        ] where rest.hasPrefix(word) || rest.hasPrefix("a \(word)") || rest.hasPrefix("an \(word)") {
            return name
        }
        return "a value of another type"
    }

    /// Finds the first integer field of a post that holds a number that is not an integer, or too large for one.
    private static func locateNumberProblem(in data: Data, position: (Int) -> String) -> String? {
        guard let root = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) else { return nil }
        let records = (root as? [Any]) ?? ((root as? [String: Any])?["posts"] as? [Any]) ?? []
        for (index, record) in records.enumerated() {
            guard let fields = record as? [String: Any] else { continue }
            for key in ["userId", "id"] {
                guard let number = fields[key] as? NSNumber else { continue }
                if number is NSDecimalNumber || number.doubleValue.rounded() != number.doubleValue
                    || Double(Int.max) <= number.doubleValue || number.doubleValue < Double(Int.min)
                {
                    let id = (fields["id"] as? NSNumber).flatMap { key == "id" ? nil : $0.intValue }
                    let isWhole = !"\(number)".contains(where: { ".eE".contains($0) })
                    let expected = isWhole ? "an integer that fits in 64 bits" : "an integer"
                    return "The post \(position(index))\(id.map { " (id \($0))" } ?? ""): field \"\(key)\" must be "
                        + "\(expected), found \(number)."
                }
            }
        }
        return nil
    }

    /// The `id` of the record at `path`, if the JSON parses and the record has an integer id.
    private static func recordId(at path: ArraySlice<any CodingKey>, in data: Data) -> Int? {
        var node = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        for key in path {
            if let index = key.intValue {
                guard let array = node as? [Any], array.indices.contains(index) else { return nil }
                node = array[index]
            } else {
                node = (node as? [String: Any])?[key.stringValue]
            }
        }
        return (node as? [String: Any])?["id"] as? Int
    }
}
