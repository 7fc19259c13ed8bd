import Foundation
import PostStoreTestSupport
import Testing

/// swift-log's guidance for libraries: take a `Logger` from the caller, never make or bootstrap one. Only the
/// `poststore` tool (and the library tour) choose a backend; a library module that made a logger of its own would
/// print into an embedder's tests.
@Suite struct LibraryLoggingTests {
    static let sources = packageRoot.appendingPathComponent("Sources")

    /// Every library module: each folder of Sources/ except the executables' and the C module's.
    static let libraryModules = [
        "PostStore", "PostStoreSQLite", "PostStoreJSONFile", "PostStoreHTTP", "PostStorePostgres", "PostStoreLive",
        "PostStoreServer", "PostStoreConformance", "PostStoreTesting", "PostStoreContainer", "PostStoreEngines",
        "PostStoreNIO", "PostStorePages",
    ]

    /// The folders of Sources/ that are no Swift library: the executables, which choose a backend, and SQLite's C.
    static let otherModules = ["PostStoreCLI", "PostStoreQuickStart", "PostStoreCSQLite"]

    /// A module added to Sources/ is checked until it is listed as one of the others.
    @Test func theLibraryModulesAreTheOnesOnDisk() throws {
        let folders = try FileManager.default.contentsOfDirectory(atPath: Self.sources.path)
        for module in Self.libraryModules { #expect(folders.contains(module), "Sources/\(module)") }
        let unlisted = folders.filter { !$0.hasPrefix(".") && !(Self.libraryModules + Self.otherModules).contains($0) }
        #expect(unlisted.isEmpty, "Sources/ folders neither library nor other: \(unlisted)")
    }

    @Test(arguments: libraryModules)
    func noLibraryModuleMakesOrBootstrapsALogger(module: String) throws {
        let folder = Self.sources.appendingPathComponent(module)
        let files = try #require(FileManager.default.enumerator(atPath: folder.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") }
        #expect(!files.isEmpty)
        for file in files {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            for forbidden in ["Logger(label", "LoggingSystem.bootstrap"] {
                // A logger that discards everything (PostgresNIO takes one on every call) prints nothing anywhere.
                let lines = text.split(separator: "\n").filter {
                    $0.contains(forbidden) && !$0.contains("///") && !$0.contains("SwiftLogNoOpLogHandler()")
                }
                #expect(lines.isEmpty, "\(module)/\(file): \(lines)")
            }
        }
    }
}
