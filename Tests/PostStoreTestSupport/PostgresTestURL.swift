import Foundation

/// The PostgreSQL server the tests may use: the URL in `POSTSTORE_TEST_POSTGRES_URL`, which
/// `scripts/postgres.sh start` prints for a throwaway cluster. Tests of the PostgreSQL engine run only when it is
/// set; each store they make gets a schema of its own. The suite runs its tests at once and held 103 connections
/// at one moment of a sampled run, past PostgreSQL's default of 100: the script's cluster allows 500.
public enum PostgresTestURL {
    /// The variable the URL is read from.
    public static let variable = "POSTSTORE_TEST_POSTGRES_URL"

    /// The one line that says how to run the PostgreSQL tests.
    public static let howToEnable =
        "PostgreSQL tests skipped: run them with \(variable)=$(bash scripts/postgres.sh start) swift test "
        + "(then bash scripts/postgres.sh stop \"$\(variable)\")."

    /// The server's URL, without a schema; `nil` when the variable is not set.
    public static let base: String? = ProcessInfo.processInfo.environment[variable].flatMap { $0.isEmpty ? nil : $0 }

    /// The URL of a store in its own schema on the test server.
    public static func url(schema: String) -> String {
        let base = base ?? "postgres://localhost/postgres"
        return base + (base.contains("?") ? "&" : "?") + "schema=" + schema
    }

    /// A new schema name, unique to this call: `t_` and 24 random hexadecimal digits.
    public static func uniqueSchema() -> String {
        "t_" + UUID().uuidString.lowercased().filter(\.isHexDigit).prefix(24)
    }
}
