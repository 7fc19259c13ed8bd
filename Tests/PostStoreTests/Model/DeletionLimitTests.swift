import Testing

@testable import PostStore

@Suite("Deletion limit")
struct DeletionLimitTests {
    @Test(
        "shares outside 0...1 are clamped and NaN counts as 0",
        arguments: [
            (-0.5, 0.0), (0, 0), (0.25, 0.25), (1, 1), (1.5, 1), (.nan, 0), (.infinity, 1), (-.infinity, 0),
        ]
    )
    func clampsTheShare(share: Double, kept: Double) {
        #expect(DeletionLimit.share(share).maximumShare == kept)
    }

    @Test("a share of 1 or more is unlimited")
    func fullShareIsUnlimited() {
        #expect(DeletionLimit.share(1) == .unlimited)
        #expect(DeletionLimit.share(3) == .unlimited)
        #expect(DeletionLimit.share(0.99) != .unlimited)
    }

    @Test(
        "the most deletions is the share of the stored posts, rounded down",
        arguments: [
            (0.5, 10, 5), (0.5, 11, 5), (0.25, 10, 2), (0.999, 3, 2), (0.1, 9, 0), (0, 1000, 0), (0.5, 0, 0),
            (1, 7, 7),
        ]
    )
    func maximumDeletions(share: Double, stored: Int, maximum: Int) {
        #expect(DeletionLimit.share(share).maximumDeletions(outOf: stored) == maximum)
    }

    /// `0.29 × 100` is 28.999999999999996 in floating point; a limit of 29% of 100 posts must still allow 29.
    @Test(
        "a whole percentage of a round number of posts allows exactly that many",
        arguments: [(0.29, 100, 29), (0.57, 100, 57), (0.07, 100, 7), (0.58, 100, 58)]
    )
    func maximumDeletionsAtExactPercentages(share: Double, stored: Int, maximum: Int) {
        #expect(DeletionLimit.share(share).maximumDeletions(outOf: stored) == maximum)
    }

    @Test("unlimited allows deleting every post", arguments: [0, 1, 12_345, Int.max])
    func unlimited(stored: Int) throws {
        #expect(DeletionLimit.unlimited.maximumDeletions(outOf: stored) == stored)
        try DeletionLimit.unlimited.check(deletions: stored, outOf: stored)
    }

    @Test(
        "the description is a percentage",
        arguments: [
            (DeletionLimit.share(0.5), "50%"), (.unlimited, "100%"), (.share(0), "0%"), (.share(0.125), "12.5%"),
        ]
    )
    func description(limit: DeletionLimit, text: String) {
        #expect(limit.description == text)
    }

    @Test(
        "a whole percentage is described without floating-point noise",
        arguments: [(0.29, "29%"), (0.07, "7%"), (0.57, "57%")]
    )
    func descriptionOfWholePercentages(share: Double, text: String) {
        #expect(DeletionLimit.share(share).description == text)
    }

    @Test("deletions up to the limit pass; one more is tooManyDeletions, and says so")
    func check() throws {
        let limit = DeletionLimit.share(0.5)
        try limit.check(deletions: 0, outOf: 10)
        try limit.check(deletions: 5, outOf: 10)
        let error = #expect(throws: PostStoreError.self) { try limit.check(deletions: 6, outOf: 10) }
        #expect(error?.code == .tooManyDeletions)
        #expect(
            error?.message
                == "Deleting 6 of the 10 stored posts exceeds the limit of 50% (5 posts); nothing was written."
        )
    }

    @Test("a limit of 0% refuses any deletion")
    func zeroRefusesAny() {
        let error = #expect(throws: PostStoreError.self) { try DeletionLimit.share(0).check(deletions: 1, outOf: 100) }
        #expect(error?.code == .tooManyDeletions)
    }
}
