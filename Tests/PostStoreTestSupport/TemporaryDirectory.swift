import Foundation

/// A fresh folder under the system's temporary directory, deleted with everything in it when released.
public final class TemporaryDirectory: Sendable {
    /// The folder's path.
    public let path: String

    public init() throws {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("poststore-tests-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        self.path = path
    }

    /// The path of `name` inside the folder.
    public func file(_ name: String) -> String { path + "/" + name }

    /// The names of the folder's entries, sorted.
    public func entries() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: path).sorted()
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }
}
