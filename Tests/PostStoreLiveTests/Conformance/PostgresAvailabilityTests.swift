import Foundation
import PostStoreTestSupport
import Testing

/// Whether the PostgreSQL engine's tests run: they need a server (``PostgresTestServer``). A developer without one
/// is told in one line how to run them; CI, which always starts one, fails when they would be skipped.
@Suite struct PostgresAvailabilityTests {
    @Test("the PostgreSQL tests run, or say how to run them (and fail under CI)")
    func postgresTestsRunOrSayHow() {
        guard PostgresTestURL.base == nil else { return }
        if ProcessInfo.processInfo.environment["CI"] == "true" {
            Issue.record("CI must run the PostgreSQL tests. \(PostgresTestURL.howToEnable)")
        } else {
            Issue.record(.init(rawValue: PostgresTestURL.howToEnable), severity: .warning)
        }
    }
}
