import PostStore

/// No answer came for an HTTP request: what an ``HTTPClient`` throws.
public struct HTTPTransportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Why no answer came.
    public enum Kind: Sendable, Hashable {
        /// The connection could not be made, or was lost before the answer was complete. Worth retrying.
        case connectionFailed
        /// The answer did not come within the request's timeout. Worth retrying.
        case timedOut
        /// The request cannot be sent at all, for example an unsupported URL scheme. Retrying does not help.
        case invalidRequest
        /// The body is longer than the request's ``HTTPRequest/maximumBodyBytes``. Retrying does not help.
        case responseTooLarge
        /// A redirect was refused: one too many, or from `https` to another scheme. Retrying does not help.
        case redirectRefused
    }

    /// Why no answer came.
    public var kind: Kind

    /// The system's explanation, for a person.
    public var message: String

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - kind: Why no answer came.
    ///   - message: The system's explanation.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// Whether trying again may succeed.
    public var isRetryable: Bool { kind == .connectionFailed || kind == .timedOut }

    /// The explanation.
    public var description: String { message }
}
