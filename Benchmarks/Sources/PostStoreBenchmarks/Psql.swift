import Foundation

/// `psql` on the benchmark's server: the anchors run as a PostgreSQL user would run them by hand.
struct Psql {
    /// The server, as a libpq URL (no query: the harness names its schemas in the statements).
    let url: String
    /// Where each run's output goes, read back for ``value(_:)`` and for the error of a failed run.
    let outputPath: String

    /// Runs the commands (SQL, or one backslash command such as `\copy` each) and returns what the process took;
    /// with `singleTransaction`, all of them in one transaction.
    @discardableResult
    func run(_ commands: [String], singleTransaction: Bool = false) throws -> ChildProcess.Outcome {
        var arguments = ["psql", "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-d", url]
        if singleTransaction { arguments.append("-1") }
        for command in commands { arguments += ["-c", command] }
        let outcome = try ChildProcess.run(arguments, outputPath: outputPath)
        guard outcome.status == 0 else {
            let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
            throw BenchmarkError("psql failed (status \(outcome.status)) on \(commands.first ?? ""): \(output)")
        }
        return outcome
    }

    /// The one value a query prints.
    func value(_ sql: String) throws -> String {
        try run([sql])
        return try String(contentsOfFile: outputPath, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Rows inserted, updated and deleted in a table since its creation, from `pg_stat_user_tables`. A backend
    /// sends its counts when it exits, so this waits until the last child's connections (application name
    /// `poststore`) are gone: a count read before would miss them and show writes as none.
    func rowsWritten(schema: String, table: String) throws -> Int {
        var waited = 0
        // A backend flushes its counts before it leaves pg_stat_activity (PostgreSQL's shutdown hooks run in that order).
        let children = """
            SELECT count(*) FROM pg_stat_activity
            WHERE application_name = 'poststore' AND usename = current_user AND datname = current_database()
            """
        while try value(children) != "0" {
            try expect(waited < 40, "the benchmark's PostgreSQL connections did not close within 10 s")
            usleep(250_000)
            waited += 1
        }
        let rows = try value(
            """
            SELECT coalesce(sum(n_tup_ins + n_tup_upd + n_tup_del), 0) FROM pg_stat_user_tables
            WHERE schemaname = '\(schema)' AND relname = '\(table)'
            """
        )
        guard let count = Int(rows) else { throw BenchmarkError("pg_stat_user_tables answered \(rows)") }
        return count
    }
}
