import PostStore
import PostgresNIO

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What a failure of the server or of the connection means to a store: one ``PostStoreError`` with a line for a
/// person, and whether the transaction that met it may be tried again.
///
/// The messages quote the server's own words (its `message`, never the query or the parameters) and name the
/// server as ``PostgresStoreLocation/serverDescription`` does, so no password can reach them.
enum PostgresFailure {
    /// Whether the failure is worth a retry of the whole transaction: the server rolled it back for a reason that a
    /// later attempt may not meet (a serialization failure, a deadlock, a lost connection, a server restarting).
    static func isTransient(_ error: any Error) -> Bool {
        if let error = error as? PSQLError {
            switch error.code {
            case .serverClosedConnection, .uncleanShutdown: return true
            // A server restarting refuses connections for a moment; one that gave no answer within the connect
            // timeout is not retried, or a frozen server would hold the user for five timeouts.
            case .connectionError: return !isConnectTimeout(error.underlying)
            case .server:
                // Read from this PSQLError itself, never from it boxed again as `any Error` (`sqlState(of:)`): in a
                // release build, Swift 6.3.1 over-releases such a box, and a refused login then crashed or read an
                // empty server info (CI runs a wrong password through a release build).
                guard let state = error.serverInfo?[.sqlState] else { return false }
                return transientStates.contains { state.hasPrefix($0) }
            default: return false
            }
        }
        // A pool's tripped circuit breaker (`cannotConnect`) means it tried to connect for a minute: a retry would
        // lease from the next loop's pool, which would try for another minute.
        if PostgresPoolFailure(error) != nil { return false }
        guard let error = error as? PostgresSessionError else { return false }
        return error == .connectionClosed
    }

    /// SQLSTATE classes and codes after which a replay may succeed.
    private static let transientStates = [
        "40001",  // serialization_failure
        "40P01",  // deadlock_detected
        "08",  // connection_exception
        "57P01", "57P02", "57P03",  // admin_shutdown, crash_shutdown, cannot_connect_now
        "53300",  // too_many_connections
    ]

    /// The error a store throws for a failure of the server or the connection.
    ///
    /// - Parameters:
    ///   - error: What PostgresNIO threw (a ``PostStoreError`` or `CancellationError` is returned unchanged).
    ///   - server: The server and database, as messages name them.
    ///   - attempts: How many times the transaction was tried.
    static func storeError(_ error: any Error, server: String, attempts: Int = 1) -> any Error {
        if error is PostStoreError || error is CancellationError { return error }
        let tries = attempts > 1 ? " (tried \(attempts) times)" : ""
        if let failure = PostgresPoolFailure(error) {
            if failure == .cancelled { return CancellationError() }
            return PostStoreError(
                .storeUnavailable,
                "Cannot reach the PostgreSQL server at \(server): no connection could be made\(tries).",
                cause: error
            )
        }
        if let error = error as? PostgresSessionError {
            switch error {
            case .stoppedAnswering: return stoppedAnswering(server: server, cause: error)
            case .connectionClosed: return closedConnection(server: server, tries: tries, cause: error)
            case .noRow: break
            }
        }
        guard let error = error as? PSQLError else {
            if let error = error as? PostgresDecodingError {
                return PostStoreError(
                    .corruptStore,
                    "The PostgreSQL store at \(server) holds a value of an unexpected type in column "
                        + "\(error.columnName); its tables do not match its recorded migrations.",
                    cause: error
                )
            }
            return PostStoreError(.ioFailure, "PostgreSQL at \(server) failed: \(error).")
        }
        switch error.code {
        case .server:
            return serverError(error, server: server, tries: tries)
        case .connectionError:
            return PostStoreError(
                .storeUnavailable,
                "Cannot connect to the PostgreSQL server at \(server): \(reason(error.underlying))\(tries).",
                cause: error
            )
        case .serverClosedConnection, .uncleanShutdown:
            return closedConnection(server: server, tries: tries, cause: error)
        case .clientClosedConnection:
            return stoppedAnswering(server: server, cause: error)
        case .authMechanismRequiresPassword:
            return PostStoreError(
                .accessDenied,
                "The PostgreSQL server at \(server) asks for a password and none was given: put it in the URL or in "
                    + "PGPASSWORD.",
                cause: error
            )
        case .sslUnsupported:
            return PostStoreError(
                .storeUnavailable,
                "The PostgreSQL server at \(server) does not offer TLS, which sslmode requires.",
                cause: error
            )
        case .queryCancelled:
            return CancellationError()
        default:
            return PostStoreError(.ioFailure, "PostgreSQL at \(server) failed: \(error.code).", cause: error)
        }
    }

    /// The connection closed under a call.
    private static func closedConnection(server: String, tries: String, cause: any Error & Sendable) -> PostStoreError {
        PostStoreError(
            .storeUnavailable,
            "The PostgreSQL server at \(server) closed the connection\(tries); the store was not changed.",
            cause: cause
        )
    }

    /// The watchdog closed the connection of a server that stopped answering.
    private static func stoppedAnswering(server: String, cause: any Error & Sendable) -> PostStoreError {
        PostStoreError(
            .storeUnavailable,
            "The PostgreSQL server at \(server) stopped answering; the connection was closed and the store was not "
                + "changed.",
            cause: cause
        )
    }

    private static func serverError(_ error: PSQLError, server: String, tries: String) -> PostStoreError {
        let state = error.serverInfo?[.sqlState] ?? ""
        let said = error.serverInfo?[.message] ?? "no message"
        func make(_ code: PostStoreError.Code, _ message: String) -> PostStoreError {
            PostStoreError(code, message, cause: error)
        }
        switch state {
        case "28P01", "28000":
            return make(.accessDenied, "The PostgreSQL server at \(server) refused the login: \(said).")
        case "42501":
            return make(.accessDenied, "The PostgreSQL server at \(server) refused: \(said).")
        case "3D000":
            // Not `storeNotFound`: no PostStore command creates a database, so "run sync first" would not help.
            return make(.storeUnavailable, "There is no database at \(server): \(said); create it first (createdb).")
        case "55P03":
            return make(
                .storeBusy,
                "Another writer or migration held the store at \(server) past the lock timeout: \(said)."
            )
        case "57014":
            return make(.storeUnavailable, "A statement on \(server) took longer than the statement timeout: \(said).")
        case "40001", "40P01":
            return make(.storeBusy, "The PostgreSQL server at \(server) kept aborting the write\(tries): \(said).")
        case "53100":
            return make(.ioFailure, "The PostgreSQL server at \(server) is out of disk space: \(said).")
        case "25006":
            return make(.storeUnavailable, "The PostgreSQL server at \(server) is read-only (a standby?): \(said).")
        case "22021", "54000", "22P05":
            return make(.invalidData, "The PostgreSQL server at \(server) refused a value: \(said).")
        case _ where state.hasPrefix("08") || state.hasPrefix("57P") || state.hasPrefix("53"):
            return make(.storeUnavailable, "The PostgreSQL server at \(server) is unavailable\(tries): \(said).")
        default:
            return make(.ioFailure, "The PostgreSQL server at \(server) failed (SQLSTATE \(state)): \(said).")
        }
    }

    /// The server's SQLSTATE for an error it sent.
    ///
    /// Pass the error as it was caught: a `PSQLError` boxed again as `any Error` is mis-compiled (see
    /// ``isTransient(_:)``).
    static func sqlState(of error: any Error) -> String? {
        (error as? PSQLError)?.serverInfo?[.sqlState]
    }

    private static func isConnectTimeout(_ underlying: (any Error)?) -> Bool {
        if let error = underlying as? ChannelError, case .connectTimeout = error { return true }
        return false
    }

    /// Why a connection failed, in a few words: the system's description of its `errno` when there is one.
    private static func reason(_ underlying: (any Error)?) -> String {
        guard let underlying else { return "the connection failed" }
        if let error = underlying as? IOError { return String(cString: strerror(error.errnoCode)).lowercased() }
        if let error = underlying as? ChannelError, case .connectTimeout(let limit) = error {
            return "no answer within \(limit.nanoseconds / 1_000_000_000) s"
        }
        if let error = underlying as? NIOConnectionError {
            if let failure = error.connectionErrors.first { return reason(failure.error) }
            if error.dnsAAAAError != nil || error.dnsAError != nil { return "its host name could not be resolved" }
        }
        return String(describing: underlying)
    }
}
