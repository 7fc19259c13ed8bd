public import Foundation

/// The package's top-level folder: the nearest folder above this file that holds `Package.swift`.
///
/// Tests that read the repository's own files (the SQL migrations, the sources, README and the guide) find them from
/// here; they run from the source tree.
public let packageRoot: URL = {
    var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    while !FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path),
        folder.pathComponents.count > 1
    {
        folder.deleteLastPathComponent()
    }
    return folder
}()
