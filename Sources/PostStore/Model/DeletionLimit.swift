/// The most a change set may delete, as a share of the posts the store held before it: the safety net of a prune
/// against a source that came back empty or cut short.
///
/// A store checks the limit under its write lock, against the posts it holds at that moment, and refuses a change
/// set that would delete more with ``PostStoreError/Code/tooManyDeletions`` before writing anything.
///
/// For example, refusing to delete more than half of the store:
///
/// ```swift
/// var changes = PostChangeSet(upserts: posts, prune: true)
/// changes.deletionLimit = .share(0.5)
/// ```
public struct DeletionLimit: Sendable, Hashable, CustomStringConvertible {
    /// The largest share of the stored posts a change set may delete, from 0 (none) to 1 (all).
    public let maximumShare: Double

    /// No limit: a change set may delete every post.
    public static let unlimited = DeletionLimit(maximumShare: 1)

    /// At most this share of the posts the store holds before the change set.
    ///
    /// - Parameter share: From 0 (no deletion at all) to 1 (no limit); values outside are clamped, NaN counts as 0.
    /// - Returns: The limit.
    public static func share(_ share: Double) -> DeletionLimit {
        DeletionLimit(maximumShare: share.isNaN ? 0 : min(max(share, 0), 1))
    }

    private init(maximumShare: Double) { self.maximumShare = maximumShare }

    /// The most posts a change set may delete from a store that holds `storedCount` posts.
    ///
    /// - Parameter storedCount: How many posts the store holds before the change set.
    /// - Returns: `maximumShare × storedCount`, rounded down.
    public func maximumDeletions(outOf storedCount: Int) -> Int {
        guard maximumShare < 1 else { return storedCount }
        let exact = maximumShare * Double(storedCount)
        // 0.29 × 100 is 28.999999999999996 in binary floating point; a share written in decimal means 29.
        let nearest = exact.rounded()
        return Int(abs(exact - nearest) <= 1e-9 * max(exact, 1) ? nearest : exact.rounded(.down))
    }

    /// Checks a number of deletions against the limit.
    ///
    /// - Parameters:
    ///   - deletions: How many posts a change set would delete.
    ///   - storedCount: How many posts the store holds before it.
    /// - Throws: ``PostStoreError/Code/tooManyDeletions`` when `deletions` is over the limit.
    package func check(deletions: Int, outOf storedCount: Int) throws(PostStoreError) {
        let maximum = maximumDeletions(outOf: storedCount)
        guard deletions > maximum else { return }
        throw PostStoreError(
            .tooManyDeletions,
            "Deleting \(deletions) of the \(storedCount) stored posts exceeds the limit of \(self) (\(maximum) "
                + "post\(maximum == 1 ? "" : "s")); nothing was written."
        )
    }

    /// The share as a percentage, for example `50%`.
    public var description: String {
        let thousandths = Int((maximumShare * 100_000).rounded())
        var fraction = String(String(1000 + thousandths % 1000).dropFirst())
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return "\(thousandths / 1000)\(fraction.isEmpty ? "" : "." + fraction)%"
    }
}
