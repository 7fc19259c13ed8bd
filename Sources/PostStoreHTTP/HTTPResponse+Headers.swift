import Foundation
import PostStore

extension HTTPResponse {
    /// How long the server asks the client to wait (`Retry-After`: seconds, or an HTTP date).
    ///
    /// - Parameter now: The current date, to turn an HTTP date into a wait.
    /// - Returns: The wait (zero for a date in the past), or `nil` without a readable header.
    func retryAfter(now: Date) -> Duration? {
        guard let value = header("retry-after")?.trimmingCharacters(in: .whitespaces) else { return nil }
        if let seconds = Int(value) { return .seconds(max(seconds, 0)) }
        guard let date = Self.httpDateFormatter.date(from: value) else { return nil }
        return .milliseconds(max(Int64((date.timeIntervalSince(now) * 1000).rounded(.up)), 0))
    }

    /// The number of posts the server says it holds (`X-Total-Count`, as json-server sends it).
    var totalCount: Int? {
        header("x-total-count").flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
    }

    /// The status and its reason, for example `404 Not Found`.
    var statusDescription: String {
        let reason = HTTPStatusReason.phrase(for: statusCode)
        return reason.isEmpty ? "\(statusCode)" : "\(statusCode) \(reason)"
    }

    /// The start of the body, when it is short text worth showing in an error message.
    var bodyExcerpt: String? {
        // Cut at a character boundary: up to three bytes back from 160.
        guard
            !body.isEmpty,
            let text = (157...160).reversed().lazy.compactMap({ String(data: body.prefix($0), encoding: .utf8) }).first
        else { return nil }
        let line = text.split(whereSeparator: \.isNewline).joined(separator: " ")
            .trimmingCharacters(in: .whitespaces)
        guard !line.isEmpty else { return nil }
        return body.count > 160 ? line + "…" : line
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

/// Reason phrases for the statuses a data service is likely to meet.
private enum HTTPStatusReason {
    static func phrase(for status: Int) -> String {
        switch status {
        case 200: "OK"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 304: "Not Modified"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 408: "Request Timeout"
        case 410: "Gone"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        default: ""
        }
    }
}
