import Foundation
import PostStorePostgresMigrations
import PostStoreTestSupport
import Testing

@testable import PostStorePostgres

/// The PostgreSQL engine's migration files, as the migrator reads them (no server needed).
@Suite struct PostgresMigrationFileTests {
    @Test("every .sql file in Migrations/PostgreSQL is embedded, byte for byte, and numbered 1, 2, 3, … in order")
    func embeddedMigrationsMatchTheFolder() throws {
        try expectEmbeddedMigrations(embeddedMigrations, matchFolder: "Migrations/PostgreSQL")
        #expect(PostgresMigrator.all.map(\.version) == Array(1...PostgresMigrator.all.count))
    }

    @Test func aMigrationFileSplitsIntoItsStatements() {
        let statements = PostgresMigrator.statements(
            of: "-- a comment;\nCREATE TABLE a (\n  x int\n);\n\nCREATE INDEX b ON a (x);\n"
        )
        #expect(
            statements.map { $0.trimmingPrefix(while: \.isWhitespace) } == [
                "CREATE TABLE a (\n  x int\n);\n", "CREATE INDEX b ON a (x);\n",
            ]
        )
    }

    @Test func everyShippedMigrationSplitsIntoStatementsEndingInASemicolon() {
        for migration in PostgresMigrator.all {
            let statements = PostgresMigrator.statements(of: migration.sql)
            #expect(!statements.isEmpty, "\(migration.name)")
            for statement in statements {
                #expect(statement.trimmingCharacters(in: .whitespacesAndNewlines).hasSuffix(";"), "\(migration.name)")
            }
        }
    }
}
