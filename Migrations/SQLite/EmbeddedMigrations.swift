/// Every migration file of the SQLite engine (`Migrations/SQLite/`), in the order they apply: each file's name
/// and its bytes exactly as they are on disk, compiled into the binary.
///
/// SwiftPM turns each `.embedInCode` resource into a `PackageResources` byte array whose name replaces the
/// leading digit with `_`. A test compares this list with the folder, so a new `.sql` file that is not listed here
/// and in `Package.swift` fails the build's tests.
public let embeddedMigrations: [(fileName: String, bytes: [UInt8])] = [
    ("0001_create_posts.sql", PackageResources._001_create_posts_sql),
    ("0002_create_search_index.sql", PackageResources._002_create_search_index_sql),
    ("0003_create_sync_state.sql", PackageResources._003_create_sync_state_sql),
    ("0004_create_settings.sql", PackageResources._004_create_settings_sql),
    ("0005_add_store_revision.sql", PackageResources._005_add_store_revision_sql),
    ("0006_create_change_history.sql", PackageResources._006_create_change_history_sql),
    ("0007_create_store_revision.sql", PackageResources._007_create_store_revision_sql),
]
