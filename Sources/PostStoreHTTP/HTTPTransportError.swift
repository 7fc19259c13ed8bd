import PostStore

/// No answer came for an HTTP request: what an ``HTTPTransport`` throws.
package struct HTTPTransportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Why no answer came.
    package enum Kind: Sendable, Hashable {
        /// The connection could not be made, or was lost before the answer was complete. Worth retrying.
        case connectionFailed
        /// The answer did not come within the request's timeout. Worth retrying.
        case timedOut
        /// The request cannot be sent at all, for example an unsupported URL scheme. Retrying does not help.
        case invalidRequest
        /// The body is longer than the request's limit. Retrying does not help.
        case responseTooLarge
        /// A redirect was refused: one too many, or from `https` to another scheme. Retrying does not help.
        case redirectRefused
    }

    /// Why no answer came.
    package var kind: Kind

    /// The system's explanation, for a person.
    package var message: String

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - kind: Why no answer came.
    ///   - message: The system's explanation.
    package init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// Whether trying again may succeed.
    package var isRetryable: Bool { kind == .connectionFailed || kind == .timedOut }

    /// The explanation.
    package var description: String { message }
}
