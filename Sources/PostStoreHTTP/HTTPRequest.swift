public import Foundation
import PostStore

/// One `GET` request, as ``HTTPPostDataService`` sends it.
public struct HTTPRequest: Sendable, Hashable {
    /// The address.
    public var url: URL

    /// Header fields to send, for example `If-None-Match`.
    public var headers: [String: String]

    /// How long to wait for the answer before giving up with ``HTTPTransportError/Kind/timedOut``.
    public var timeout: Duration

    /// The most bytes of body to accept: a longer answer fails with ``HTTPTransportError/Kind/responseTooLarge``
    /// as soon as it is known to be longer, before it is held whole.
    public var maximumBodyBytes: Int

    /// Creates a request.
    ///
    /// - Parameters:
    ///   - url: The address.
    ///   - headers: Header fields to send.
    ///   - timeout: How long to wait for the answer.
    ///   - maximumBodyBytes: The most bytes of body to accept.
    public init(
        url: URL,
        headers: [String: String] = [:],
        timeout: Duration = .seconds(30),
        maximumBodyBytes: Int = .max
    ) {
        self.url = url
        self.headers = headers
        self.timeout = timeout
        self.maximumBodyBytes = maximumBodyBytes
    }
}
