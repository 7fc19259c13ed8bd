// swift-tools-version: 6.1
import Foundation
import PackageDescription

// An app that embeds PostStore (the PostgreSQL trait off, as a lean app builds it) and syncs while it does other work:
// scripts/benchmarks/concurrency-benchmark.py builds it against this checkout and against an earlier one, side by side.
// The main package is two folders up, by path; SwiftPM names a path dependency after its folder.
let mainPackagePath = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

let package = Package(
    name: "PostStoreConcurrencyBenchmarks",
    platforms: [.macOS(.v15)],
    products: [.executable(name: "poststore-stall", targets: ["PostStoreStall"])],
    dependencies: [.package(path: mainPackagePath.path, traits: [])],
    targets: [
        .executableTarget(
            name: "PostStoreStall",
            dependencies: [
                .product(name: "PostStore", package: mainPackagePath.lastPathComponent),
                .product(name: "PostStoreSQLite", package: mainPackagePath.lastPathComponent),
            ],
            swiftSettings: [
                .enableUpcomingFeature("ExistentialAny"),
                .enableUpcomingFeature("InternalImportsByDefault"),
            ]
        )
    ]
)
