// The one file that imports postgres-nio's underscored module (scripts/ci/check-imports.py allows it here alone):
// `PostgresClient` throws the pool's `ConnectionPoolError` as it is when no connection can be made at all (its
// circuit breaker), and PostgresNIO does not re-export that type. Everything else reads the case below.
import _ConnectionPoolModule

/// A failure of `PostgresClient`'s connection pool itself, as opposed to a connection's or the server's.
enum PostgresPoolFailure: Equatable {
    /// The pool gave up making connections for now: the server could not be reached.
    case cannotConnect
    /// The request for a connection was cancelled.
    case cancelled
    /// Another failure of the pool (it was shut down, for example).
    case other

    /// The pool failure that `error` is, or `nil` when it is not one.
    ///
    /// - Parameter error: What PostgresNIO threw.
    init?(_ error: any Error) {
        guard let error = error as? ConnectionPoolError else { return nil }
        switch error {
        case .connectionCreationCircuitBreakerTripped: self = .cannotConnect
        case .requestCancelled: self = .cancelled
        default: self = .other
        }
    }
}
