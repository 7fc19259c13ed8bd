import PostStore
import Testing

@testable import PostStorePostgres

/// Reading a store's URL as libpq reads one, with the environment's defaults, and never showing its password.
@Suite struct PostgresStoreLocationTests {
    @Test func everyPartOfTheURLIsRead() throws {
        let location = try PostgresStoreLocation(
            url: "postgresql://app%40corp:p%3Ass@db.local:5433/shop%20one?schema=my%22posts&sslmode=require"
                + "&connect_timeout=3&statement_timeout=2s",
            environment: [:]
        )
        #expect(location.username == "app@corp")
        #expect(location.password == "p:ss")
        #expect(location.host == "db.local")
        #expect(location.port == 5433)
        #expect(location.database == "shop one")
        #expect(location.schema == "my\"posts")
        #expect(location.tls == .require)
        #expect(location.connectTimeout == .seconds(3))
        #expect(location.statementTimeout == .seconds(2))
    }

    @Test func libpqsVariablesFillWhatTheURLLeavesOut() throws {
        let environment = [
            "PGHOST": "env-host", "PGPORT": "6000", "PGUSER": "env-user", "PGPASSWORD": "env-secret",
            "PGDATABASE": "env-db", "PGSSLMODE": "disable",
        ]
        let fromEnvironment = try PostgresStoreLocation(url: "postgres://", environment: environment)
        #expect(fromEnvironment.host == "env-host")
        #expect(fromEnvironment.port == 6000)
        #expect(fromEnvironment.username == "env-user")
        #expect(fromEnvironment.password == "env-secret")
        #expect(fromEnvironment.database == "env-db")
        #expect(fromEnvironment.tls == .disable)
        #expect(fromEnvironment.schema == "poststore")

        let fromURL = try PostgresStoreLocation(url: "postgres://u:p@h:1/d?sslmode=prefer", environment: environment)
        #expect(
            [fromURL.username, fromURL.password, fromURL.host, fromURL.database] == ["u", "p", "h", "d"]
                && fromURL.port == 1 && fromURL.tls == .prefer
        )
    }

    @Test func libpqsDefaultsComeLast() throws {
        let location = try PostgresStoreLocation(url: "postgres://someone@/", environment: [:])
        #expect(location.host == "localhost")
        #expect(location.port == 5432)
        #expect(location.database == "someone", "a database named after the user")
        #expect(location.tls == .prefer)
        #expect(location.password == nil)
    }

    @Test func anIPv6AddressAndASocketFolderAreHosts() throws {
        let ipv6 = try PostgresStoreLocation(url: "postgres://u@[::1]:5444/d", environment: [:])
        #expect(ipv6.host == "::1" && ipv6.port == 5444)
        #expect(ipv6.description == "postgres://u@[::1]:5444/d?schema=poststore")
        let socket = try PostgresStoreLocation(url: "postgres://u@%2Fvar%2Frun%2Fpostgresql/d", environment: [:])
        #expect(socket.host == "/var/run/postgresql")
        #expect(socket.socketPath == "/var/run/postgresql/.s.PGSQL.5432")
        #expect(try PostgresStoreLocation(url: socket.description, environment: [:]) == socket, "round trip")
    }

    @Test func thePasswordIsNeverShown() throws {
        let location = try PostgresStoreLocation(url: "postgres://u:hunter2@h/d?password=hunter3", environment: [:])
        #expect(location.password == "hunter3", "the parameter wins, as in libpq")
        #expect(!location.description.contains("hunter"))
        #expect(
            PostgresStoreLocation.redacting("postgres://u:hunter2@h/d?password=hunter3&schema=s")
                == "postgres://u@h/d?password=…&schema=s"
        )
        #expect(PostgresStoreLocation.redacting("postgres://u:hunter2@h:oops/d") == "postgres://u@h:oops/d")
    }

    @Test(arguments: [
        ("mysql://h/d", "must start with postgres://"),
        ("postgres://h:0/d", "port \"0\" is not a number from 1 to 65535"),
        ("postgres://h:x/d", "port \"x\""),
        ("postgres://h/d?sslmode=sometimes", "sslmode \"sometimes\""),
        ("postgres://h/d?colour=blue", "unknown parameter \"colour\""),
        ("postgres://h/d?schema=", "schema name is empty"),
        ("postgres://h/d?schema=" + String(repeating: "s", count: 64), "64 bytes long"),
        ("postgres://h1,h2/d", "several hosts"),
        ("postgres://h/d?connect_timeout=0", "connect_timeout \"0\""),
        ("postgres://h/d?statement_timeout=soon", "statement_timeout \"soon\""),
        ("postgres://h/d%ZZ", "database name is not percent-encoded"),
        ("postgres://u:secret@h:99999/d", "port \"99999\""),
        ("postgres://h/d?schema=a&schema=b", "sets \"schema\" twice"),
        ("postgres://h/d?schema=pg_foo", "begins with pg_"),
        ("postgres://h/d?statement_timeout=99999999999999", "from 1 ms to 24 days"),
        ("postgres://h/d?statement_timeout=9000000000000000000h", "statement_timeout"),
        ("postgres://h/d?schema=demo#frag", "fragment"),
    ])
    func badURLsAreInvalidArgumentsThatSayWhy(url: String, reason: String) {
        let error = #expect(throws: PostStoreError.self) { try PostgresStoreLocation(url: url, environment: [:]) }
        #expect(error?.code == .invalidArgument)
        #expect(error?.message.contains(reason) == true, "\(error?.message ?? "")")
        #expect(error?.message.contains("secret") == false)
    }

    @Test(arguments: [("PGPORT", "abc", "PGPORT \"abc\""), ("PGSSLMODE", "bogus", "PGSSLMODE \"bogus\"")])
    func aBadVariableIsNamed(variable: String, value: String, reason: String) {
        let error = #expect(throws: PostStoreError.self) {
            try PostgresStoreLocation(url: "postgres://h/d", environment: [variable: value])
        }
        #expect(error?.message.contains(reason) == true, "\(error?.message ?? "")")
    }
}
