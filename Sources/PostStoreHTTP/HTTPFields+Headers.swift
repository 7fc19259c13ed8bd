import Foundation
import HTTPTypes
import PostStore

extension HTTPField.Name {
    /// `Link` (RFC 8288): json-server's and GitHub's pagination links.
    static let link = HTTPField.Name("Link")!

    /// `X-Total-Count`: how many posts json-server holds in all.
    static let xTotalCount = HTTPField.Name("X-Total-Count")!
    /// `PostStore-Changes-Token`: the change token of the state a `poststore serve` answer comes from.
    static let changesToken = HTTPField.Name("PostStore-Changes-Token")!
}

extension HTTPFields {
    /// How long the server asks the client to wait (`Retry-After`: seconds, or an HTTP date).
    ///
    /// - Parameter now: The current date, to turn an HTTP date into a wait.
    /// - Returns: The wait (zero for a date in the past), or `nil` without a readable header.
    func retryAfter(now: Date) -> Duration? {
        guard let value = self[.retryAfter]?.trimmingCharacters(in: .whitespaces) else { return nil }
        if let seconds = Int(value) { return .seconds(Swift.max(seconds, 0)) }
        guard let date = Self.httpDateFormatter.date(from: value) else { return nil }
        return .milliseconds(Swift.max(Int64((date.timeIntervalSince(now) * 1000).rounded(.up)), 0))
    }

    /// The change token of the state the answer comes from (`PostStore-Changes-Token`), or `nil` without a
    /// readable one: a server without a changes feed.
    var changesToken: ChangeToken? {
        self[.changesToken].flatMap { ChangeToken($0.trimmingCharacters(in: .whitespaces)) }
    }

    /// The number of posts the server says it holds (`X-Total-Count`, as json-server sends it).
    var totalCount: Int? {
        self[.xTotalCount].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
    }

    /// The links of the `Link` header, resolved against `base`, or `nil` without one.
    ///
    /// - Parameter base: The URL the answer came from, for relative targets.
    /// - Returns: The parsed header.
    func links(relativeTo base: URL) -> LinkHeader? {
        self[.link].map { LinkHeader($0, relativeTo: base) }
    }

    /// IMF-fixdate, the form HTTP dates take (`Sun, 06 Nov 1994 08:49:37 GMT`).
    private static let httpDateFormatter: DateFormatter = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter
    }()
}
