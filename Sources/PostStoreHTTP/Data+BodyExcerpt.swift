import Foundation

extension Data {
    /// The start of an HTTP body, when it is short text worth showing in an error message.
    var bodyExcerpt: String? {
        // Cut at a character boundary: up to three bytes back from 160.
        guard
            !isEmpty,
            let text = (157...160).reversed().lazy.compactMap({ String(data: self.prefix($0), encoding: .utf8) }).first
        else { return nil }
        let line = text.split(whereSeparator: \.isNewline).joined(separator: " ")
            .trimmingCharacters(in: .whitespaces)
        guard !line.isEmpty else { return nil }
        return count > 160 ? line + "…" : line
    }
}
