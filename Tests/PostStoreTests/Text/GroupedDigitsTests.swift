import PostStore
import Testing

/// Counts for people: digits in groups of three, the same in every locale.
@Suite struct GroupedDigitsTests {
    @Test func numbersAreGroupedByThousands() {
        #expect(
            [0, 7, 999, 1_000, 1_000_000, -12_345, Int.min].map(\.groupedDigits) == [
                "0", "7", "999", "1,000", "1,000,000", "-12,345", "-9,223,372,036,854,775,808",
            ]
        )
    }
}
