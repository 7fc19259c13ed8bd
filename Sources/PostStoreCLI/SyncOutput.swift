import Foundation
import PostStore

/// `sync --format json`: the report with the store named.
struct SyncOutput: Encodable {
    let source: String
    let store: String
    let fetched, inserted, updated, unchanged, deleted: Int
    let notModified: Bool
    let pages: Int
    /// Whether nothing was written: a dry run's counts say what a sync would do.
    let dryRun: Bool
    let durationSeconds: Double

    init(report: SyncReport, store: String) {
        source = report.source
        self.store = store
        fetched = report.fetched
        inserted = report.inserted
        updated = report.updated
        unchanged = report.unchanged
        deleted = report.deleted
        notModified = report.notModified
        pages = report.pages
        dryRun = report.dryRun
        durationSeconds = report.durationSeconds
    }

    func json() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }
}
