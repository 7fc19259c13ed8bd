import Foundation

/// A fresh folder under the system's temporary directory, deleted with everything in it when released.
final class TemporaryDirectory: Sendable {
    /// The folder's path.
    let path: String

    init() throws {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("poststore-tests-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        self.path = path
    }

    /// The path of `name` inside the folder.
    func file(_ name: String) -> String { path + "/" + name }

    /// The names of the folder's entries, sorted.
    func entries() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: path).sorted()
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }
}
