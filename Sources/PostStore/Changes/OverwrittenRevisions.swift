/// The range of revisions of the versions one write overwrote (posts replaced or deleted, tombstones of ids written
/// again): what an engine records for each such write, so that an answer of the changes feed never stops between a
/// version and the write that overwrote it (see ``ChangePageEnd``).
package struct OverwrittenRevisions: Sendable, Equatable {
    /// The lowest and highest revision overwritten, or `nil` when the write overwrote nothing.
    package private(set) var range: ClosedRange<Int>?

    package init() {}

    /// Adds the revision of an overwritten version; `nil` (nothing was overwritten) is skipped.
    package mutating func add(_ revision: Int?) {
        guard let revision else { return }
        range = range.map { min($0.lowerBound, revision)...max($0.upperBound, revision) } ?? revision...revision
    }
}
