// swift-tools-version: 6.1
import Foundation
import PackageDescription

// The main package, by path. SwiftPM names a path dependency after its folder, which is whatever the checkout is
// called, so the name is read from the path rather than written down.
let mainPackagePath = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()

let package = Package(
    name: "PostStoreBenchmarks",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "poststore-benchmarks", targets: ["PostStoreBenchmarks"])
    ],
    dependencies: [
        .package(path: mainPackagePath.path),
        // The same version the main package resolves: the PostgreSQL queries are timed beside postgres-nio alone.
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
    ],
    targets: [
        // "The limit": the fastest reasonable C pipeline from a posts JSON file to SQLite, the yardstick the Swift
        // engines are measured against. It links the system SQLite, as the main package's PostStoreCSQLite does, so
        // both sides run the same library.
        .target(name: "CLimit", linkerSettings: [.linkedLibrary("sqlite3")]),
        .executableTarget(
            name: "PostStoreBenchmarks",
            dependencies: [
                "CLimit",
                .product(name: "PostStore", package: mainPackagePath.lastPathComponent),
                .product(name: "PostStoreSQLite", package: mainPackagePath.lastPathComponent),
                .product(name: "PostStoreJSONFile", package: mainPackagePath.lastPathComponent),
                .product(name: "PostStorePostgres", package: mainPackagePath.lastPathComponent),
                .product(name: "PostStoreServer", package: mainPackagePath.lastPathComponent),
                .product(name: "PostStoreEngines", package: mainPackagePath.lastPathComponent),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ],
            swiftSettings: [
                .enableUpcomingFeature("ExistentialAny"),
                .enableUpcomingFeature("InternalImportsByDefault"),
            ]
        ),
    ]
)
