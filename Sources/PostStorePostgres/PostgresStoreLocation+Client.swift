import PostgresNIO

extension PostgresStoreLocation {
    /// The TLS settings of a `PostgresClient`, as libpq's `sslmode` means them.
    var clientTLS: PostgresClient.Configuration.TLS {
        switch tls {
        case .disable: .disable
        case .prefer: .prefer(tlsConfiguration)
        default: .require(tlsConfiguration)
        }
    }

    /// The certificate checks of ``tls``: none below `verify-ca`, as libpq.
    private var tlsConfiguration: TLSConfiguration {
        var configuration = TLSConfiguration.makeClientConfiguration()
        switch tls {
        case .disable, .prefer, .require: configuration.certificateVerification = .none
        case .verifyCA: configuration.certificateVerification = .noHostnameVerification
        case .verifyFull: configuration.certificateVerification = .fullVerification
        }
        return configuration
    }

    /// The path of the server's socket when ``host`` is a folder, as libpq names it: `FOLDER/.s.PGSQL.PORT`.
    var socketPath: String {
        (host.hasSuffix("/") ? host : host + "/") + ".s.PGSQL.\(port)"
    }

    /// Settings sent when each connection starts: the statement timeout, and the application's name for
    /// `pg_stat_activity`.
    var startupParameters: [(String, String)] {
        [
            ("statement_timeout", String(PostgresPostStore.milliseconds(statementTimeout))),
            ("application_name", "poststore"),
            // A backend whose client went away (a cancelled call closes its connection) stops waiting for a lock
            // within a second, rather than when the lock comes.
            ("client_connection_check_interval", "1000"),
        ]
    }

    /// The configuration of one direct connection to the location (the first, which reports failures precisely).
    var connectionConfiguration: PostgresConnection.Configuration? {
        var configuration: PostgresConnection.Configuration
        if host.hasPrefix("/") {
            configuration = PostgresConnection.Configuration(
                unixSocketPath: socketPath,
                username: username,
                password: password,
                database: database
            )
        } else {
            let connectionTLS: PostgresConnection.Configuration.TLS
            switch tls {
            case .disable:
                connectionTLS = .disable
            case .prefer:
                guard let context = try? NIOSSLContext(configuration: tlsConfiguration) else { return nil }
                connectionTLS = .prefer(context)
            default:
                guard let context = try? NIOSSLContext(configuration: tlsConfiguration) else { return nil }
                connectionTLS = .require(context)
            }
            configuration = PostgresConnection.Configuration(
                host: host,
                port: port,
                username: username,
                password: password,
                database: database,
                tls: connectionTLS
            )
        }
        configuration.options.connectTimeout = TimeAmount.nanoseconds(
            Int64(connectTimeout.components.seconds) * 1_000_000_000
                + connectTimeout.components.attoseconds / 1_000_000_000
        )
        configuration.options.additionalStartupParameters = startupParameters
        return configuration
    }
}
