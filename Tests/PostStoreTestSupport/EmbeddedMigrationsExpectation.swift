import Foundation
public import Testing

/// Expects an engine's embedded migrations to be its `Migrations/` folder: every `.sql` file listed, in order, byte
/// for byte, so that a file added to the folder but not to `Package.swift` and `EmbeddedMigrations.swift`, or a
/// stale build, fails a test.
///
/// - Parameters:
///   - embedded: The migrations target's `embeddedMigrations`.
///   - folder: The folder, relative to the package root (`Migrations/SQLite`).
public func expectEmbeddedMigrations(
    _ embedded: [(fileName: String, bytes: [UInt8])],
    matchFolder folder: String,
    sourceLocation: SourceLocation = #_sourceLocation
) throws {
    let url = packageRoot.appendingPathComponent(folder)
    let files = try FileManager.default.contentsOfDirectory(atPath: url.path).filter { $0.hasSuffix(".sql") }.sorted()
    #expect(files.count >= 3, sourceLocation: sourceLocation)
    #expect(
        embedded.map { $0.fileName } == files,
        "list new files in Package.swift and EmbeddedMigrations",
        sourceLocation: sourceLocation
    )
    for migration in embedded {
        let onDisk = try Data(contentsOf: url.appendingPathComponent(migration.fileName))
        #expect(
            Array(onDisk) == migration.bytes,
            "\(migration.fileName) is stale: rebuild",
            sourceLocation: sourceLocation
        )
    }
}
