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
    let byChanges: Bool
    let deletionsKept: Int
    let refetchReason: String?
    let changeToken: String?

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
        byChanges = report.byChanges
        deletionsKept = report.deletionsKept
        refetchReason = report.refetchReason
        changeToken = report.changeToken?.description
    }

    /// Every key, `null` where there is no value.
    private enum CodingKeys: String, CodingKey {
        case source, store, fetched, inserted, updated, unchanged, deleted, notModified, pages, dryRun
        case durationSeconds, byChanges, deletionsKept, refetchReason, changeToken
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(source, forKey: .source)
        try container.encode(store, forKey: .store)
        try container.encode(fetched, forKey: .fetched)
        try container.encode(inserted, forKey: .inserted)
        try container.encode(updated, forKey: .updated)
        try container.encode(unchanged, forKey: .unchanged)
        try container.encode(deleted, forKey: .deleted)
        try container.encode(notModified, forKey: .notModified)
        try container.encode(pages, forKey: .pages)
        try container.encode(dryRun, forKey: .dryRun)
        try container.encode(durationSeconds, forKey: .durationSeconds)
        try container.encode(byChanges, forKey: .byChanges)
        try container.encode(deletionsKept, forKey: .deletionsKept)
        try container.encode(refetchReason, forKey: .refetchReason)
        try container.encode(changeToken, forKey: .changeToken)
    }

    func json() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }
}
