import Foundation
import PostStore

/// One line on standard error per answered request.
struct AccessLog: Sendable {
    /// The lines' format.
    let format: PostServerConfiguration.AccessLogFormat

    /// What one line says.
    struct Entry: Sendable {
        var time: Date
        var remote: String
        var method: String
        var target: String
        var status: Int
        var bytes: Int
        var duration: Duration
    }

    /// The line of an entry, without its line break; the client's text (the target) has its controls escaped.
    func line(_ entry: Entry) -> String {
        let milliseconds =
            Double(entry.duration.components.attoseconds) / 1e15 + Double(entry.duration.components.seconds) * 1000
        let rounded = (milliseconds * 10).rounded() / 10
        switch format {
        case .text:
            let target = Self.escapingControls(entry.target)
            return "\(entry.remote) \"\(entry.method) \(target)\" \(entry.status) \(entry.bytes) \(rounded)ms"
        case .json:
            var writer = JSONWriter()
            writer.raw("{")
            writer.key("time")
            writer.string(Date.ISO8601FormatStyle(includingFractionalSeconds: true).format(entry.time))
            for (key, value) in [("remote", entry.remote), ("method", entry.method), ("target", entry.target)] {
                writer.raw(", ")
                writer.key(key)
                writer.string(value)
            }
            for (key, value) in [("status", entry.status), ("bytes", entry.bytes)] {
                writer.raw(", ")
                writer.key(key)
                writer.integer(value)
            }
            writer.raw(", ")
            writer.key("milliseconds")
            writer.raw(String(rounded))
            writer.raw("}")
            return String(decoding: writer.bytes, as: UTF8.self)
        }
    }

    /// The client's text with its control characters and double quotes written as `%XX`, so that a line stays one
    /// line and its quoted request stays whole.
    static func escapingControls(_ text: String) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            if scalar.value < 0x20 || scalar.value == 0x7F || scalar == "\"" {
                escaped += "%" + String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 2)
            } else {
                escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    /// Writes an entry's line to standard error in one `write`, so that lines from concurrent requests never mix.
    func record(_ entry: Entry) {
        let bytes = Array((line(entry) + "\n").utf8)
        bytes.withUnsafeBytes { _ = write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }
}

extension String {
    /// The text with zeros before it up to `width` characters.
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
