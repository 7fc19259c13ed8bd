// swift-tools-version: 6.1
import Foundation
import PackageDescription

// The main package, by path. SwiftPM names a path dependency after its folder, which is whatever the checkout is
// called, so the name is read from the path rather than written down (as Benchmarks/Package.swift does).
let mainPackagePath = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
let postStore = Target.Dependency.product(name: "PostStore", package: mainPackagePath.lastPathComponent)

/// The main package's settings. The fuzzers add `-parse-as-library`: libFuzzer brings `main`, a fuzzer only exports
/// `LLVMFuzzerTestOneInput`. Unsafe flags are fine here: this package is only ever built as the root.
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "PostStoreFuzz",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "fuzz-decoder", targets: ["PostStoreDecoderFuzzer"]),
        .executable(name: "fuzz-reader", targets: ["PostStoreReaderFuzzer"]),
    ],
    dependencies: [
        .package(path: mainPackagePath.path)
    ],
    targets: [
        // The checks both fuzzers make, an in-memory file system that reads in short pieces, and the bridge from
        // libFuzzer's synchronous callback to the async data-service API.
        .target(name: "FuzzSupport", dependencies: [postStore], swiftSettings: swiftSettings),
        // `PostJSON.decode` on its own: posts, or one-line `invalidData`; posts survive a re-encode.
        .executableTarget(
            name: "PostStoreDecoderFuzzer",
            dependencies: ["FuzzSupport", postStore],
            swiftSettings: swiftSettings + [.unsafeFlags(["-parse-as-library"])]
        ),
        // `FilePostDataService` over short reads, compared with `PostJSON.decode` of the whole input.
        .executableTarget(
            name: "PostStoreReaderFuzzer",
            dependencies: ["FuzzSupport", postStore],
            swiftSettings: swiftSettings + [.unsafeFlags(["-parse-as-library"])]
        ),
    ]
)
