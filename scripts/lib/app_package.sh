# Sourced by the scripts that make an app package depending on a clone of PostStore (release-check.sh,
# app-build-times.sh).
#
# write_app_package FOLDER DEPENDENCY PRODUCT
#   Writes an app package in FOLDER: one target, App, that imports PRODUCT of the PostStore package that DEPENDENCY
#   names (the arguments of a `.package(url: …)` line, such as `url: "file:///tmp/x/PostStore", revision: "…"`).
write_app_package() {
    local folder=$1 dependency=$2 product=$3
    mkdir -p "$folder/Sources/App"
    echo "import $product" >"$folder/Sources/App/App.swift"
    cat >"$folder/Package.swift" <<MANIFEST
// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "App",
    platforms: [.macOS(.v15)],
    dependencies: [.package($dependency)],
    targets: [.target(name: "App", dependencies: [.product(name: "$product", package: "PostStore")])]
)
MANIFEST
}
