extension String {
    /// How many single-character edits turn this text into `other`, ignoring case: insertions, deletions,
    /// substitutions and swaps of two neighbours (the optimal string alignment distance), so `qeury` is one edit
    /// from `query`.
    ///
    /// For example:
    ///
    /// ```swift
    /// "qeury".editDistance(to: "query")  // 1
    /// "Sync".editDistance(to: "sync")  // 0
    /// ```
    func editDistance(to other: String) -> Int {
        let left = Array(lowercased())
        let right = Array(other.lowercased())
        guard !left.isEmpty else { return right.count }
        guard !right.isEmpty else { return left.count }
        // Three rows of the table: two back for a swap, one back, and the one being filled.
        var beforePrevious = [Int](repeating: 0, count: right.count + 1)
        var previous = Array(0...right.count)
        var current = [Int](repeating: 0, count: right.count + 1)
        for i in 1...left.count {
            current[0] = i
            for j in 1...right.count {
                let cost = left[i - 1] == right[j - 1] ? 0 : 1
                current[j] = Swift.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, left[i - 1] == right[j - 2], left[i - 2] == right[j - 1] {
                    current[j] = Swift.min(current[j], beforePrevious[j - 2] + 1)
                }
            }
            (beforePrevious, previous, current) = (previous, current, beforePrevious)
        }
        return previous[right.count]
    }
}
