import Foundation
public import PostStore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a PostgreSQL store is: the server, the login, the database and the schema that holds the store.
///
/// Read from a URL as libpq reads one, `postgres://USER:PASSWORD@HOST:PORT/DATABASE?schema=NAME` (or
/// `postgresql://…`), with libpq's environment variables filling what the URL leaves out: `PGHOST`, `PGPORT`,
/// `PGUSER`, `PGPASSWORD`, `PGDATABASE` and `PGSSLMODE`. Then libpq's defaults: host `localhost`, port 5432, the
/// user the process runs as, a database named after the user. The schema defaults to `poststore`, so several
/// stores can share one database.
///
/// The password is never shown: ``description`` and every message leave it out.
///
/// For example:
///
/// ```swift
/// let location = try PostgresStoreLocation(url: "postgres://app:secret@db.local/shop?schema=posts")
/// // location.description == "postgres://app@db.local:5432/shop?schema=posts"
/// ```
public struct PostgresStoreLocation: Sendable, Hashable, CustomStringConvertible {
    /// How the connection uses TLS, as libpq's `sslmode` names it.
    public enum TLSMode: String, Sendable, Hashable, CaseIterable {
        /// Never: plain TCP.
        case disable
        /// When the server offers it, without checking its certificate (libpq's `allow` reads the same).
        case prefer
        /// Always, without checking the certificate.
        case require
        /// Always, checking the certificate against the system's authorities but not the host name.
        case verifyCA = "verify-ca"
        /// Always, checking the certificate and that it names the host.
        case verifyFull = "verify-full"
    }

    /// The server's host name or IP address, or (starting with `/`) the folder of its Unix-domain socket.
    public var host: String
    /// The server's port (also the socket's number when ``host`` is a folder).
    public var port: Int
    /// The role to log in as.
    public var username: String
    /// The password, if the server asks for one. Never shown.
    public var password: String?
    /// The database.
    public var database: String
    /// The schema that holds the store's tables.
    public var schema: String
    /// Whether and how the connection uses TLS.
    public var tls: TLSMode
    /// How long connecting may take before it fails.
    public var connectTimeout: Duration
    /// How long one statement may run before the server cancels it, and the store gives up on a server that
    /// stopped answering (a little later).
    public var statementTimeout: Duration

    /// The schema a store is in when the URL names none.
    public static let defaultSchema = "poststore"
    /// How long connecting may take when the URL does not say (libpq's `connect_timeout`).
    public static let defaultConnectTimeout: Duration = .seconds(10)
    /// How long a statement may run when the URL does not say (`statement_timeout`).
    public static let defaultStatementTimeout: Duration = .seconds(300)

    /// A location from its parts.
    ///
    /// - Parameters:
    ///   - host: Host name, address, or socket folder.
    ///   - port: Port.
    ///   - username: Role.
    ///   - password: Password, if needed.
    ///   - database: Database.
    ///   - schema: Schema of the store.
    ///   - tls: TLS mode.
    ///   - connectTimeout: Limit on connecting.
    ///   - statementTimeout: Limit on one statement.
    public init(
        host: String = "localhost",
        port: Int = 5432,
        username: String,
        password: String? = nil,
        database: String,
        schema: String = PostgresStoreLocation.defaultSchema,
        tls: TLSMode = .prefer,
        connectTimeout: Duration = PostgresStoreLocation.defaultConnectTimeout,
        statementTimeout: Duration = PostgresStoreLocation.defaultStatementTimeout
    ) {
        self.host = host
        self.port = port
        self.username = username
        self.password = password
        self.database = database
        self.schema = schema
        self.tls = tls
        self.connectTimeout = connectTimeout
        self.statementTimeout = statementTimeout
    }

    /// Reads a location from a `postgres://` or `postgresql://` URL and libpq's environment variables.
    ///
    /// Besides `schema`, the URL's query may set `sslmode`, `connect_timeout` (seconds, as libpq),
    /// `statement_timeout` (milliseconds, or with a unit: `30s`, `5min`), and `host`, `port`, `user`, `password`
    /// and `dbname` as libpq allows. Percent-encoded characters are decoded.
    ///
    /// - Parameters:
    ///   - url: The URL.
    ///   - environment: The variables to read `PGHOST` and the others from; the process's by default.
    /// - Throws: `PostStoreError/Code/invalidArgument` naming what is wrong (the password left out).
    public init(
        url: String,
        environment: [String: String] = PostgresStoreLocation.processEnvironment
    )
        throws(PostStoreError)
    {
        let shown = Self.redacting(url)
        func invalid(_ why: String) -> PostStoreError {
            PostStoreError(.invalidArgument, "The PostgreSQL store \"\(shown)\" is not valid: \(why).")
        }
        guard let rest = ["postgres://", "postgresql://"].lazy.compactMap({ url.afterCaseInsensitivePrefix($0) }).first
        else { throw invalid("it must start with postgres:// or postgresql://") }
        var text = Substring(rest)
        if text.contains("#") { throw invalid("it has a fragment (#…), which a PostgreSQL URL does not take") }
        var parameters: [(String, String)] = []
        if let question = text.firstIndex(of: "?") {
            for pair in text[text.index(after: question)...].split(separator: "&", omittingEmptySubsequences: true) {
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard parts.count == 2, let key = Self.percentDecoded(parts[0]),
                    let value = Self.percentDecoded(parts[1])
                else { throw invalid("its query part \"\(Self.redactingParameter(pair))\" is not NAME=VALUE") }
                if parameters.contains(where: { $0.0 == key }) { throw invalid("it sets \"\(key)\" twice") }
                parameters.append((key, value))
            }
            text = text[..<question]
        }
        var path = Substring("")
        if let slash = text.firstIndex(of: "/") {
            path = text[text.index(after: slash)...]
            text = text[..<slash]
        }
        var user: String?
        var password: String?
        if let at = text.lastIndex(of: "@") {
            let userInfo = text[..<at]
            text = text[text.index(after: at)...]
            let parts = userInfo.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = Self.percentDecoded(parts[0]) else {
                throw invalid("its user name is not percent-encoded UTF-8")
            }
            user = name.isEmpty ? nil : name
            if parts.count == 2 {
                guard let secret = Self.percentDecoded(parts[1]) else {
                    throw invalid("its password is not percent-encoded UTF-8")
                }
                password = secret
            }
        }
        var host: String?
        var port: String?
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { throw invalid("its IPv6 address lacks a closing ]") }
            host = String(text[text.index(after: text.startIndex)..<close])
            let after = text[text.index(after: close)...]
            if after.hasPrefix(":") {
                port = String(after.dropFirst())
            } else if !after.isEmpty {
                throw invalid("unexpected \"\(after)\" after the IPv6 address")
            }
        } else {
            if text.contains(",") { throw invalid("it names several hosts, and PostStore connects to one") }
            let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = Self.percentDecoded(parts[0]) else {
                throw invalid("its host is not percent-encoded UTF-8")
            }
            host = name.isEmpty ? nil : name
            if parts.count == 2 { port = String(parts[1]) }
        }
        guard let databaseName = Self.percentDecoded(path) else {
            throw invalid("its database name is not percent-encoded UTF-8")
        }
        var database = databaseName.isEmpty ? nil : databaseName
        var schema: String?
        var sslMode: String?
        var connectTimeout: String?
        var statementTimeout: String?
        for (key, value) in parameters {
            switch key {
            case "schema": schema = value
            case "sslmode": sslMode = value
            case "connect_timeout": connectTimeout = value
            case "statement_timeout": statementTimeout = value
            case "host": host = value
            case "port": port = value
            case "user": user = value
            case "password": password = value
            case "dbname": database = value
            default:
                throw invalid(
                    "unknown parameter \"\(key)\" (PostStore reads schema, sslmode, connect_timeout, "
                        + "statement_timeout, host, port, user, password and dbname)"
                )
            }
        }
        let resolvedUser = user ?? environment["PGUSER"].nonEmpty ?? Self.processUserName
        let portText = port.nonEmpty ?? environment["PGPORT"].nonEmpty ?? "5432"
        guard let portNumber = Int(portText), (1...65_535).contains(portNumber) else {
            let source = port.nonEmpty == nil ? "PGPORT" : "its port"
            throw invalid("\(source) \"\(portText)\" is not a number from 1 to 65535")
        }
        let modeText = sslMode ?? environment["PGSSLMODE"].nonEmpty ?? "prefer"
        guard let mode = modeText == "allow" ? .prefer : TLSMode(rawValue: modeText) else {
            throw invalid(
                "\(sslMode == nil ? "PGSSLMODE" : "sslmode") \"\(modeText)\" is not one of disable, allow, prefer, "
                    + "require, verify-ca, verify-full"
            )
        }
        let schemaName = schema ?? Self.defaultSchema
        try Self.checkSchemaName(schemaName) { invalid($0) }
        self.init(
            host: host ?? environment["PGHOST"].nonEmpty ?? "localhost",
            port: portNumber,
            username: resolvedUser,
            password: password ?? environment["PGPASSWORD"],
            database: database ?? environment["PGDATABASE"].nonEmpty ?? resolvedUser,
            schema: schemaName,
            tls: mode,
            connectTimeout: try connectTimeout.map { text throws(PostStoreError) in
                guard let seconds = Int(text), seconds > 0 else {
                    throw invalid("connect_timeout \"\(text)\" is not a whole number of seconds above 0")
                }
                return .seconds(seconds)
            } ?? Self.defaultConnectTimeout,
            statementTimeout: try statementTimeout.map { text throws(PostStoreError) in
                guard let duration = Self.duration(text), duration <= Self.longestStatementTimeout else {
                    throw invalid(
                        "statement_timeout \"\(text)\" is not a duration from 1 ms to 24 days (milliseconds, or with "
                            + "ms, s, min or h)"
                    )
                }
                return duration
            } ?? Self.defaultStatementTimeout
        )
    }

    /// The location as a URL, without the password: `postgres://USER@HOST:PORT/DATABASE?schema=NAME`.
    public var description: String {
        let hostPart = host.contains(":") ? "[\(host)]" : Self.percentEncoded(host)
        return "postgres://\(Self.percentEncoded(username))@\(hostPart):\(port)/\(Self.percentEncoded(database))"
            + "?schema=\(Self.percentEncoded(schema))"
    }

    /// The server and database for messages: `db.local:5432/shop`.
    var serverDescription: String {
        let hostPart = host.contains(":") ? "[\(host)]" : host
        return "\(hostPart):\(port)/\(database)"
    }

    /// The process's environment, where libpq's variables are read from by default.
    public static var processEnvironment: [String: String] { ProcessInfo.processInfo.environment }

    /// A URL as typed, with any password taken out, for messages about a URL that may not parse.
    ///
    /// - Parameter url: The URL.
    /// - Returns: The URL without the password of its user part and without a `password=` parameter.
    public static func redacting(_ url: String) -> String {
        var text = Substring(url)
        var query = Substring("")
        if let question = text.firstIndex(of: "?") {
            query = text[question...]
            text = text[..<question]
        }
        // The authority starts after `scheme://`, or after `scheme:` when the slashes were forgotten.
        if let schemeEnd = text.range(of: "://") ?? text.range(of: ":") {
            let authorityStart = schemeEnd.upperBound
            let authorityEnd = text[authorityStart...].firstIndex(of: "/") ?? text.endIndex
            if let at = text[authorityStart..<authorityEnd].lastIndex(of: "@"),
                let colon = text[authorityStart..<at].firstIndex(of: ":")
            {
                text = text[..<colon] + text[at...]
            }
        }
        guard !query.isEmpty else { return String(text) }
        let pairs = query.dropFirst().split(separator: "&", omittingEmptySubsequences: false).map(redactingParameter)
        return String(text) + "?" + pairs.joined(separator: "&")
    }

    private static func redactingParameter(_ pair: Substring) -> String {
        pair.hasPrefix("password=") || pair == "password" ? "password=…" : String(pair)
    }

    /// Checks a schema name PostgreSQL will take as an identifier: not empty, no NUL, at most 63 bytes (PostgreSQL
    /// would cut a longer one short, and another store's name could then collide with it).
    static func checkSchemaName(_ name: String, invalid: (String) -> PostStoreError) throws(PostStoreError) {
        guard !name.isEmpty else { throw invalid("its schema name is empty") }
        guard !name.hasPrefix("pg_") else {
            throw invalid("its schema name \"\(name)\" begins with pg_, which PostgreSQL keeps for its own schemas")
        }
        guard !name.utf8.contains(0) else { throw invalid("its schema name contains a NUL character") }
        guard name.utf8.count <= 63 else {
            throw invalid("its schema name is \(name.utf8.count) bytes long; PostgreSQL takes at most 63")
        }
    }

    /// The longest `statement_timeout` PostgreSQL takes: 2³¹ − 1 milliseconds, about 24.8 days.
    private static let longestStatementTimeout = Duration.milliseconds(Int32.max)

    /// `250`, `250ms`, `30s`, `5min`, `1h`: PostgreSQL's own spellings of a timeout (a bare number is milliseconds).
    private static func duration(_ text: String) -> Duration? {
        let digits = text.prefix(while: \.isNumber)
        guard let value = Int(digits), value > 0, value <= Int(Int32.max) else { return nil }  // no overflow below
        switch text.dropFirst(digits.count).trimmingPrefix(" ") {
        case "", "ms": return .milliseconds(value)
        case "s": return .seconds(value)
        case "min": return .seconds(value * 60)
        case "h": return .seconds(value * 3600)
        default: return nil
        }
    }

    private static var processUserName: String {
        if let entry = getpwuid(geteuid()), let name = entry.pointee.pw_name { return String(cString: name) }
        return "postgres"
    }

    /// The text with its `%XX` escapes decoded; `nil` when one is malformed or the bytes are not UTF-8.
    private static func percentDecoded(_ text: Substring) -> String? {
        text.contains("%") ? String(text).removingPercentEncoding : String(text)
    }

    /// The text with every byte outside RFC 3986's unreserved characters written `%XX`.
    private static func percentEncoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }

    private static let unreserved = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"
    )
}

extension Optional where Wrapped == String {
    /// The string unless it is missing or empty, as libpq treats an empty variable.
    fileprivate var nonEmpty: String? {
        switch self {
        case .some(let text) where !text.isEmpty: text
        default: nil
        }
    }
}
