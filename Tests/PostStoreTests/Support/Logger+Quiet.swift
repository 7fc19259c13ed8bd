import Logging

extension Logger {
    /// A logger that drops everything, so services under test do not print.
    static let quiet = Logger(label: "PostStoreTests") { _ in SwiftLogNoOpLogHandler() }
}
