public import Foundation
import PostStore

/// A server's whole answer to an ``HTTPRequest``.
public struct HTTPResponse: Sendable, Hashable {
    /// The status code, for example 200.
    public var statusCode: Int

    /// The header fields, keyed by lowercased name (set through the initializer, which lowercases them).
    public private(set) var headers: [String: String]

    /// The body.
    public var body: Data

    /// Creates a response.
    ///
    /// - Parameters:
    ///   - statusCode: The status code.
    ///   - headers: The header fields; names are lowercased.
    ///   - body: The body.
    public init(statusCode: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.statusCode = statusCode
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { $1 })
        self.body = body
    }

    /// The value of a header field.
    ///
    /// - Parameter name: The field's name, in any case.
    /// - Returns: Its value, or `nil` when the answer has no such field.
    public func header(_ name: String) -> String? {
        headers[name.lowercased()]
    }
}
