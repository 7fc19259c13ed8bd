// swift-tools-version: 6.1
import PackageDescription

/// Settings every target shares: Swift 6 mode is the tools-version default; these two upcoming features keep
/// existentials explicit (`any PostStoreProtocol`) and imports out of the public interface unless said so.
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "PostStore",
    // The APIs used (Synchronization's `Mutex`, Swift concurrency, URLSession, the SDK's sqlite3) allow these; CI
    // builds and tests Linux only.
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .visionOS(.v2)],
    products: [
        // The core and the in-memory engine: no SQLite, no networking.
        .library(name: "PostStore", targets: ["PostStore"]),
        // The dependency container: DependencyStore, @Injected, withDependencies.
        .library(name: "PostStoreContainer", targets: ["PostStoreContainer"]),
        // What an engine declares to the composition root: its StoreEngine entry and the engine-facing protocols.
        .library(name: "PostStoreEngines", targets: ["PostStoreEngines"]),
        .library(name: "PostStoreSQLite", targets: ["PostStoreSQLite"]),
        .library(name: "PostStoreJSONFile", targets: ["PostStoreJSONFile"]),
        .library(name: "PostStoreHTTP", targets: ["PostStoreHTTP"]),
        .library(name: "PostStorePostgres", targets: ["PostStorePostgres"]),
        // `poststore serve`: any store as a JSONPlaceholder-compatible HTTP API (Hummingbird).
        .library(name: "PostStoreServer", targets: ["PostStoreServer"]),
        // The composition root: every engine and data service, store specs and the live graph.
        .library(name: "PostStoreLive", targets: ["PostStoreLive"]),
        .library(name: "PostStoreTesting", targets: ["PostStoreTesting"]),
        // The contract suite, for the tests of engines written outside this package (Swift Testing).
        .library(name: "PostStoreConformance", targets: ["PostStoreConformance"]),
        .executable(name: "poststore", targets: ["PostStoreCLI"]),
        .executable(name: "poststore-quickstart", targets: ["PostStoreQuickStart"]),
    ],
    // The PostgreSQL engine in the composition root's table is a trait, on by default: an app that wires SQLite, JSON
    // files and HTTP alone turns it off (`traits: []` on its `.package` line) and builds no NIO, BoringSSL or
    // postgres-nio for PostStoreLive. Code that the trait removes is under `#if PostgreSQL`.
    traits: [
        .trait(name: "PostgreSQL", description: "The PostgreSQL engine (postgres-nio) in PostStoreLive's table."),
        .default(enabledTraits: ["PostgreSQL"]),
    ],
    dependencies: [
        // The logging API the sync service and the HTTP data service write to; apps choose the backend.
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        // The `poststore` command line.
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        // HTTP's currency types (requests, responses, header fields), which URLSession, AsyncHTTPClient and
        // Hummingbird all speak: the HTTP data service's transport seam and the server's. Pure Swift, small.
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        // The PostgreSQL engine's client (NIO); only PostStorePostgres and its tests build it.
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        // The HTTP server of `poststore serve` (NIO, as postgres-nio already builds); its default traits, which add
        // swift-configuration and full Foundation, are off.
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1", traits: []),
        // NIO's core types and ServiceLifecycle's signal handling, which Hummingbird builds anyway: named for the
        // server module's own imports.
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        // gzip for the server's answers (zlib, through the library Hummingbird's own compression middleware uses).
        .package(url: "https://github.com/adam-fowler/compress-nio.git", from: "1.5.0"),
        // Test-only: property-based generators with shrinking for the differential tests.
        .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.1"),
        // Test-only: an RFC 4180 reader independent of ours (it reads Unicode scalars) to read `--format csv` back.
        .package(url: "https://github.com/yaslab/CSV.swift.git", from: "2.5.2"),
    ],
    targets: [
        // The core: the model, the contract, the payload format, the in-memory engine, syncing and the file data
        // service. Every other module depends on it; it depends on no engine.
        .target(
            name: "PostStore",
            dependencies: [.product(name: "Logging", package: "swift-log")],
            swiftSettings: swiftSettings
        ),
        // The dependency container for apps that resolve by type (`@Injected`); the composition root registers the
        // live graph in it. Apart from the core so that an app or engine that injects through initializers
        // compiles none of it.
        .target(name: "PostStoreContainer", dependencies: ["PostStore"], swiftSettings: swiftSettings),
        // What the NIO-based modules share (the server, the PostgreSQL engine): a task executor on an event loop.
        .target(
            name: "PostStoreNIO",
            dependencies: [.product(name: "NIOCore", package: "swift-nio")],
            swiftSettings: swiftSettings
        ),
        // The engines' plug-in point and kit: `StoreEngine` (the entry each engine module declares, and `.memory` for
        // the core's in-memory engine), the options a store is opened with, what `info` and `migrate` read of a
        // store, and the executors an engine runs its blocking work on. Below the engines, above the core.
        .target(
            name: "PostStoreEngines",
            dependencies: ["PostStore", .product(name: "Logging", package: "swift-log")],
            swiftSettings: swiftSettings
        ),
        .systemLibrary(
            // Named so that it cannot collide with another package's `CSQLite` target in an app's build graph. On
            // Apple platforms the SDK's sqlite3 is found without pkg-config.
            name: "PostStoreCSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),
        // The SQLite engine's versioned SQL files (Migrations/SQLite), compiled into the binary as byte arrays so no
        // resource bundle can go missing when the executable is copied elsewhere.
        .target(
            name: "PostStoreSQLiteMigrations",
            path: "Migrations/SQLite",
            resources: [
                .embedInCode("0001_create_posts.sql"),
                .embedInCode("0002_create_search_index.sql"),
                .embedInCode("0003_create_sync_state.sql"),
                .embedInCode("0004_create_settings.sql"),
                .embedInCode("0005_add_store_revision.sql"),
                .embedInCode("0006_create_change_history.sql"),
                .embedInCode("0007_create_store_revision.sql"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "PostStoreSQLite",
            dependencies: ["PostStore", "PostStoreEngines", "PostStoreCSQLite", "PostStoreSQLiteMigrations"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "PostStoreJSONFile",
            dependencies: ["PostStore", "PostStoreEngines"],
            swiftSettings: swiftSettings
        ),
        // The PostgreSQL engine's versioned SQL files (Migrations/PostgreSQL), embedded as the SQLite ones are.
        .target(
            name: "PostStorePostgresMigrations",
            path: "Migrations/PostgreSQL",
            resources: [
                .embedInCode("0001_create_posts.sql"),
                .embedInCode("0002_add_pg_trgm.sql"),
                .embedInCode("0003_create_sync_state.sql"),
                .embedInCode("0004_create_store_revision.sql"),
                .embedInCode("0005_create_change_history.sql"),
                .embedInCode("0006_text_columns.sql"),
            ],
            swiftSettings: swiftSettings
        ),
        // The PostgreSQL engine: one store shared by many machines, over postgres-nio (the only engine that builds
        // NIO; the server, PostStoreNIO and the composition root with its trait on are the other modules that do).
        .target(
            name: "PostStorePostgres",
            dependencies: [
                "PostStore", "PostStoreEngines", "PostStoreNIO", "PostStorePostgresMigrations",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                // Underscored, so imported by one file alone (PostgresPoolFailure.swift, which says why, and
                // scripts/ci/check-imports.py holds it there): `ConnectionPoolError`, which PostgresClient throws when
                // it cannot connect at all and PostgresNIO does not re-export.
                .product(name: "_ConnectionPoolModule", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        // The only module that imports FoundationNetworking (on Linux).
        .target(
            name: "PostStoreHTTP",
            dependencies: [
                "PostStore", "PostStoreEngines",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        // `poststore serve`: the HTTP API over any store. Only the CLI and its tests build it (and Hummingbird).
        .target(
            name: "PostStoreServer",
            dependencies: [
                "PostStore", "PostStoreEngines", "PostStoreNIO", "PostStorePages",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "CompressNIO", package: "compress-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        // The pages `poststore serve` shows a browser, rendered whole on the server: HTML, and their style sheet,
        // script and icon, real files compiled in as byte arrays (PageAsset) as the migrations are.
        .target(
            name: "PostStorePages",
            dependencies: ["PostStore", "PostStoreEngines", .product(name: "HTTPTypes", package: "swift-http-types")],
            resources: [
                .embedInCode("Resources/page.css"),
                .embedInCode("Resources/page.js"),
                .embedInCode("Resources/icon.svg"),
            ],
            swiftSettings: swiftSettings
        ),
        // The composition root: the one module that knows every engine and data service.
        .target(
            name: "PostStoreLive",
            dependencies: [
                "PostStore", "PostStoreContainer", "PostStoreEngines", "PostStoreSQLite", "PostStoreJSONFile",
                "PostStoreHTTP",
                .target(name: "PostStorePostgres", condition: .when(traits: ["PostgreSQL"])),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        // Test doubles for embedders' tests (and ours); imports neither Testing nor XCTest.
        .target(
            name: "PostStoreTesting",
            dependencies: ["PostStore", "PostStoreEngines"],
            swiftSettings: swiftSettings
        ),
        // The contract every engine keeps, as Swift Testing checks that any engine's tests can run; it imports
        // Testing (which ships with the toolchain) and writes the doubles' sample posts.
        .target(
            name: "PostStoreConformance",
            dependencies: ["PostStore", "PostStoreEngines", "PostStoreTesting"],
            swiftSettings: swiftSettings
        ),
        // The `poststore` tool: commands parse and print; the composition root wires everything.
        .executableTarget(
            name: "PostStoreCLI",
            dependencies: [
                "PostStore",
                "PostStoreEngines",
                "PostStoreLive",
                "PostStoreServer",
                // The default store (a SQLite file) and the HTTP source's options (timeouts, retries).
                "PostStoreSQLite",
                "PostStoreHTTP",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        // A tour of the library: loads Samples/posts.json into every engine and queries each.
        .executableTarget(
            name: "PostStoreQuickStart",
            dependencies: ["PostStore", "PostStoreEngines", "PostStoreLive"],
            swiftSettings: swiftSettings
        ),
        // The embedder's pattern: an app-style feature written against the core's protocols, and its tests on
        // doubles.
        .target(
            name: "PostListExample",
            dependencies: ["PostStore", "PostStoreContainer"],
            path: "Examples/PostListExample",
            swiftSettings: swiftSettings
        ),
        // Test-only: pipe2 and posix_spawn_file_actions_addchdir_np for ChildProcess, which glibc declares only under
        // _GNU_SOURCE and Swift's Glibc module therefore hides.
        .target(name: "PostStoreCSpawn", path: "Tests/PostStoreCSpawn"),
        // Test-only helpers shared by the test targets: a socket HTTP server on 127.0.0.1, temporary folders, child
        // processes (posix_spawn), the package's root folder, and the doubles of the core's seams that the tests of
        // several modules use. It depends on the core only, never on an engine.
        .target(
            name: "PostStoreTestSupport",
            dependencies: ["PostStore", "PostStoreEngines", "PostStoreCSpawn"],
            path: "Tests/PostStoreTestSupport",
            swiftSettings: swiftSettings
        ),
        // One test target per library module, each depending on its module and what it needs: the core's tests
        // compile no engine and no networking.
        .testTarget(
            name: "PostStoreTests",
            dependencies: [
                "PostStore",
                "PostStoreTesting",
                "PostStoreTestSupport",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "InMemoryLogging", package: "swift-log"),
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            swiftSettings: swiftSettings
        ),
        // The engine kit's own parts: write turns, staging a new store.
        .testTarget(
            name: "PostStoreEnginesTests",
            dependencies: ["PostStore", "PostStoreEngines", "PostStoreTesting", "PostStoreTestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PostStorePagesTests",
            dependencies: ["PostStorePages", .product(name: "PropertyBased", package: "swift-property-based")],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PostStoreContainerTests",
            dependencies: ["PostStore", "PostStoreContainer", "PostStoreTesting"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PostStoreSQLiteTests",
            dependencies: [
                "PostStore",
                "PostStoreEngines",
                "PostStoreSQLite",
                "PostStoreSQLiteMigrations",
                "PostStoreTesting",
                "PostStoreTestSupport",
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PostStoreJSONFileTests",
            dependencies: [
                "PostStore", "PostStoreEngines", "PostStoreJSONFile", "PostStoreTesting", "PostStoreTestSupport",
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PostStoreHTTPTests",
            dependencies: [
                "PostStore",
                "PostStoreHTTP",
                "PostStoreTesting",
                "PostStoreTestSupport",
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: swiftSettings
        ),
        // The PostgreSQL engine without a server: URLs, query plans, migration files (its tests on a server are in
        // PostStoreLiveTests, beside the other engines'); and postgres-nio's own COPY on a server, in a child process.
        .testTarget(
            name: "PostStorePostgresTests",
            dependencies: [
                "PostStore", "PostStoreNIO", "PostStorePostgres", "PostStorePostgresMigrations", "PostStoreTestSupport",
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        // The composition root, and what needs every engine: the contract suite on each engine of the table, the
        // engines' agreement, syncs and paths across the file engines, the PostgreSQL engine on a server.
        .testTarget(
            name: "PostStoreLiveTests",
            dependencies: [
                "PostStore",
                "PostStoreContainer",
                "PostStoreEngines",
                "PostStoreSQLite",
                "PostStoreJSONFile",
                "PostStoreHTTP",
                "PostStorePostgres",
                "PostStoreLive",
                "PostStoreNIO",
                "PostStoreTesting",
                "PostStoreConformance",
                "PostStoreTestSupport",
                .product(name: "InMemoryLogging", package: "swift-log"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            // Dumps of PostgreSQL stores made by release 0.1.0, for the tests of their upgrade.
            resources: [
                .embedInCode("Fixtures/poststore_release_0_1_0.sql"),
                .embedInCode("Fixtures/poststore_release_0_1_0_nul.sql"),
            ],
            swiftSettings: swiftSettings
        ),
        // The server: its parameters and routes without a socket, then a real server on 127.0.0.1 over SQLite and
        // the other engines, synced from by the live HTTP data service.
        .testTarget(
            name: "PostStoreServerTests",
            dependencies: [
                "PostStore",
                "PostStoreServer",
                "PostStorePages",
                "PostStoreEngines",
                "PostStoreSQLite",
                "PostStoreJSONFile",
                "PostStorePostgres",
                "PostStoreHTTP",
                "PostStoreTestSupport",
                "PostStoreTesting",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            swiftSettings: swiftSettings
        ),
        // Every ```swift block of README.md, the DocC articles and the doc comments, made into code by
        // scripts/ci/doc-snippets.py (CI checks the files are current): a snippet that drifts from the API fails the
        // build. No shared settings: the blocks compile as in a user's package.
        .testTarget(
            name: "DocumentationSnippetTests",
            dependencies: [
                "PostStore", "PostStoreContainer", "PostStoreEngines", "PostStoreSQLite", "PostStoreJSONFile",
                "PostStoreHTTP", "PostStorePostgres", "PostStoreServer", "PostStoreLive", "PostStoreTesting",
                "PostStoreConformance", "PostListExample",
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ]
        ),
        .testTarget(
            name: "PostListExampleTests",
            dependencies: ["PostListExample", "PostStore", "PostStoreContainer", "PostStoreTesting"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PostStoreTestingTests",
            dependencies: ["PostStore", "PostStoreContainer", "PostStoreTesting"],
            swiftSettings: swiftSettings
        ),
        // End-to-end: runs the built `poststore` binary as a subprocess; depending on the executable target makes
        // SwiftPM build it first.
        .testTarget(
            name: "PostStoreCLITests",
            dependencies: [
                "PostStoreCLI",
                "PostStore",
                "PostStoreSQLite",
                "PostStoreHTTP",
                "PostStoreJSONFile",
                "PostStorePostgres",
                "PostStoreLive",
                "PostStoreTesting",
                "PostStoreTestSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "CSV", package: "CSV.swift"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            swiftSettings: swiftSettings
        ),
    ]
)
