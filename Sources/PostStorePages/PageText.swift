import Foundation

/// How the pages put a post's text and a time in a table or a line: a title and a body's start cut short, a time
/// in UTC for people and for `datetime`.
package enum PageText {
    /// The longest start of a body the table shows, in characters.
    static let excerptLength = 100

    /// The longest title the table shows, in characters; the post's page shows it whole.
    static let titleLength = 200

    /// A title cut at ``titleLength`` characters.
    static func shortened(_ title: String) -> String {
        title.count > titleLength ? title.prefix(titleLength) + "…" : title
    }

    /// The start of a body on one line: runs of white space as one space, cut at ``excerptLength`` characters.
    static func excerpt(of body: String) -> String {
        var excerpt = ""
        var count = 0
        var pendingSpace = false
        for character in body {
            if character.isWhitespace {
                pendingSpace = !excerpt.isEmpty
                continue
            }
            if count + (pendingSpace ? 1 : 0) >= excerptLength { return excerpt + "…" }
            if pendingSpace {
                excerpt.append(" ")
                count += 1
                pendingSpace = false
            }
            excerpt.append(character)
            count += 1
        }
        return excerpt
    }

    /// A time as a `datetime` attribute takes it: `2026-11-29T15:47:00Z`.
    static func machineTime(_ date: Date) -> String {
        date.formatted(.iso8601)
    }

    /// A time as a person reads it, in UTC, to the minute: `2026-11-29 15:47 UTC`.
    static func readableTime(_ date: Date) -> String {
        machineTime(date).prefix(16).replacingOccurrences(of: "T", with: " ") + " UTC"
    }
}
