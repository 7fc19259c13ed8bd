import Logging

/// A log handler that writes its lines above a progress display's live line: the live line is erased first and
/// drawn again after, so that `--verbose` log lines and progress never mix on one line.
struct ProgressLogHandler<Base: LogHandler>: LogHandler {
    private var base: Base
    private let display: ProgressDisplay

    /// Creates a handler.
    ///
    /// - Parameters:
    ///   - base: The handler that writes the lines.
    ///   - display: The display whose live line they go above.
    init(_ base: Base, display: ProgressDisplay) {
        self.base = base
        self.display = display
    }

    var metadata: Logger.Metadata {
        get { base.metadata }
        set { base.metadata = newValue }
    }

    var metadataProvider: Logger.MetadataProvider? {
        get { base.metadataProvider }
        set { base.metadataProvider = newValue }
    }

    var logLevel: Logger.Level {
        get { base.logLevel }
        set { base.logLevel = newValue }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { base[metadataKey: key] }
        set { base[metadataKey: key] = newValue }
    }

    func log(event: LogEvent) {
        display.writingAbove { base.log(event: event) }
    }
}
