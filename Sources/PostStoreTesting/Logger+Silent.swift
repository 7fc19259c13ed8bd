public import Logging

extension Logger {
    /// A logger that drops everything, for services under test: `SyncService(…, logger: .silent)`.
    public static let silent = Logger(label: "PostStoreTesting.silent") { _ in SwiftLogNoOpLogHandler() }
}
