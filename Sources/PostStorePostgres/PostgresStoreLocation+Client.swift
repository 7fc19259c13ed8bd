import PostgresNIO

extension PostgresStoreLocation {
    /// The configuration of the pool a store runs for this location.
    ///
    /// - Parameter maximumConnections: The most connections the pool opens.
    func clientConfiguration(maximumConnections: Int) -> PostgresClient.Configuration {
        var configuration =
            isSocketFolder
            ? PostgresClient.Configuration(
                unixSocketPath: socketPath,
                username: username,
                password: password,
                database: database
            )
            : PostgresClient.Configuration(
                host: host,
                port: port,
                username: username,
                password: password,
                database: database,
                tls: {
                    switch tls {
                    case .disable: .disable
                    case .prefer: .prefer(tlsConfiguration)
                    case .require, .verifyCA, .verifyFull: .require(tlsConfiguration)
                    }
                }()
            )
        configuration.options.connectTimeout = connectTimeout
        configuration.options.maximumConnections = max(1, maximumConnections)
        configuration.options.additionalStartupParameters = startupParameters
        return configuration
    }

    /// The configuration of one connection outside the pool (the store's first, which reports a refused login or
    /// an unreachable server at once, where the pool would retry for many seconds and then report neither).
    ///
    /// - Throws: What NIOSSL throws when it cannot make the TLS context.
    func connectionConfiguration() throws -> PostgresConnection.Configuration {
        var configuration: PostgresConnection.Configuration
        if isSocketFolder {
            configuration = PostgresConnection.Configuration(
                unixSocketPath: socketPath,
                username: username,
                password: password,
                database: database
            )
        } else {
            let connectionTLS: PostgresConnection.Configuration.TLS =
                switch tls {
                case .disable: .disable
                case .prefer: .prefer(try NIOSSLContext(configuration: tlsConfiguration))
                case .require, .verifyCA, .verifyFull: .require(try NIOSSLContext(configuration: tlsConfiguration))
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
        configuration.options.connectTimeout = TimeAmount(connectTimeout)
        configuration.options.additionalStartupParameters = startupParameters
        return configuration
    }

    /// Whether ``host`` names the folder of the server's Unix-domain socket rather than a host.
    private var isSocketFolder: Bool { host.hasPrefix("/") }

    /// The path of the server's socket when ``host`` is a folder, as libpq names it: `FOLDER/.s.PGSQL.PORT`.
    var socketPath: String {
        (host.hasSuffix("/") ? host : host + "/") + ".s.PGSQL.\(port)"
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

    /// Settings sent when each connection starts: the statement timeout, and the application's name for
    /// `pg_stat_activity`.
    private var startupParameters: [(String, String)] {
        [
            ("statement_timeout", String(PostgresPostStore.milliseconds(statementTimeout))),
            ("application_name", "poststore"),
            // A backend whose client went away (a cancelled call closes its connection) stops waiting for a lock
            // within a second, rather than when the lock comes.
            ("client_connection_check_interval", "1000"),
        ]
    }
}
