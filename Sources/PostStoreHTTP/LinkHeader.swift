import Foundation
import PostStore

/// The links of an HTTP `Link` header (RFC 8288), as json-server and GitHub send them for pagination:
/// `<http://host/posts?_page=2&_limit=10>; rel="next", <…>; rel="last"`.
struct LinkHeader: Sendable, Hashable {
    /// The targets by relation type (`next`, `last`, …), resolved against the request's URL.
    let links: [String: URL]

    /// Parses a header value; parts that do not parse are skipped.
    ///
    /// - Parameters:
    ///   - value: The header's value.
    ///   - base: The URL the answer came from, for relative targets.
    init(_ value: String, relativeTo base: URL) {
        var links: [String: URL] = [:]
        for part in Self.splitLinks(value) {
            guard let open = part.firstIndex(of: "<"), let close = part[open...].firstIndex(of: ">"),
                let url = URL(string: String(part[part.index(after: open)..<close]), relativeTo: base)?.absoluteURL
            else { continue }
            for parameter in part[part.index(after: close)...].split(separator: ";") {
                let pair = parameter.split(separator: "=", maxSplits: 1)
                guard pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces).lowercased() == "rel" else {
                    continue
                }
                let relations = pair[1].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: ["\""])
                for relation in relations.split(separator: " ") where links[relation.lowercased()] == nil {
                    links[relation.lowercased()] = url
                }
            }
        }
        self.links = links
    }

    /// The `next` page, if the header names one.
    var next: URL? { links["next"] }

    /// Splits at the commas between links, not those inside `<…>` or quotes.
    private static func splitLinks(_ value: String) -> [Substring] {
        var parts: [Substring] = []
        var start = value.startIndex
        var inTarget = false
        var inQuotes = false
        for index in value.indices {
            switch value[index] {
            case "<" where !inQuotes: inTarget = true
            case ">" where !inQuotes: inTarget = false
            case "\"" where !inTarget: inQuotes.toggle()
            case "," where !inTarget && !inQuotes:
                parts.append(value[start..<index])
                start = value.index(after: index)
            default: break
            }
        }
        parts.append(value[start...])
        return parts
    }
}
