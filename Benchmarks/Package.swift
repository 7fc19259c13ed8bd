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
        .package(path: mainPackagePath.path)
    ],
    targets: [
        .executableTarget(
            name: "PostStoreBenchmarks",
            dependencies: [.product(name: "PostStore", package: mainPackagePath.lastPathComponent)],
            swiftSettings: [
                .enableUpcomingFeature("ExistentialAny"),
                .enableUpcomingFeature("InternalImportsByDefault"),
            ]
        )
    ]
)
