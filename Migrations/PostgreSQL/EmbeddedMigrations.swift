/// One SQL migration file of the PostgreSQL engine (`Migrations/PostgreSQL/`), compiled into the binary.
public struct EmbeddedMigration: Sendable {
    /// The file name, for example `0001_create_posts.sql`.
    public let fileName: String

    /// The file's bytes, exactly as they are on disk.
    public let bytes: [UInt8]
}

/// Every migration file, in the order they apply.
///
/// SwiftPM turns each `.embedInCode` resource into a `PackageResources` byte array whose name replaces the
/// leading digit with `_`. A test compares this list with the folder, so a new `.sql` file that is not listed here
/// and in `Package.swift` fails the build's tests.
public let embeddedMigrations: [EmbeddedMigration] = [
    EmbeddedMigration(fileName: "0001_create_posts.sql", bytes: PackageResources._001_create_posts_sql),
    EmbeddedMigration(fileName: "0002_create_search_index.sql", bytes: PackageResources._002_create_search_index_sql),
    EmbeddedMigration(fileName: "0003_create_sync_state.sql", bytes: PackageResources._003_create_sync_state_sql),
]
