import Foundation
import PostStore

/// `sync --format json`: the report as `SyncReport` encodes it, with the store named beside its keys.
struct SyncOutput: Encodable {
    let report: SyncReport
    let store: String

    private enum CodingKeys: String, CodingKey {
        case store
    }

    /// The report's keys and `store`, in one object.
    func encode(to encoder: any Encoder) throws {
        try report.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(store, forKey: .store)
    }

    func json() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }
}
