import Foundation
import PostStore
import Synchronization

/// A one-line progress display on standard error, redrawn in place; silent unless enabled (a terminal).
final class ProgressDisplay: Sendable {
    private let enabled: Bool
    private let drawn = Mutex(false)

    init(enabled: Bool) {
        self.enabled = enabled
    }

    /// Shows one sync event.
    @Sendable func show(_ event: SyncProgress) {
        guard enabled else { return }
        let text: String
        switch event {
        case .pageFetched(let page, _, let soFar, let total):
            let bar = total.map { Self.bar(done: soFar, of: $0) } ?? ""
            text = "Fetching: page \(page), \(soFar)\(total.map { " of \($0)" } ?? "") posts \(bar)"
        case .retrying(let attempt, let delay, _):
            text = "Attempt \(attempt) failed; retrying in \(delay)…"
        case .applying(let posts):
            text = "Applying \(posts) posts…"
        case .applied:
            text = "Done."
        }
        drawn.withLock { $0 = true }
        FileHandle.standardError.write(Data(("\r\u{1B}[2K" + text).utf8))
    }

    /// Ends the line, if anything was drawn.
    func finish() {
        if drawn.withLock({ $0 }) { FileHandle.standardError.write(Data("\n".utf8)) }
    }

    private static func bar(done: Int, of total: Int) -> String {
        let width = 20
        let filled = total > 0 ? min(width, done * width / total) : width
        return "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled) + "]"
    }
}
